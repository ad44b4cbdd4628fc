import type { ReactiveElement } from 'lit';

function focusNow(root: ParentNode, id: string): boolean {
  const target = root.querySelector<HTMLElement>(`[id="${id}"]`);
  if (!target) return false;
  target.focus();
  return true;
}

/**
 * Moves focus to an element after a render, when the control that had it goes away or an action
 * asks for it. The element may belong to a sub-component that renders a moment after its page;
 * then it is looked for again once the sub-components are done.
 */
export class FocusTarget {
  #id: string | undefined;

  /** Focus the element with this id once it is on the page. */
  set(id: string): void {
    this.#id = id;
  }

  get pending(): boolean {
    return this.#id !== undefined;
  }

  /** Call from `updated()`. */
  apply(root: ParentNode): void {
    const id = this.#id;
    if (!id) return;
    if (focusNow(root, id)) {
      this.#id = undefined;
      return;
    }
    const pending = [...root.querySelectorAll('*')].filter((element): element is ReactiveElement & Element => 'updateComplete' in element);
    void Promise.all(pending.map((element) => element.updateComplete)).then(() => {
      if (this.#id === id && focusNow(root, id)) this.#id = undefined;
    });
  }
}
