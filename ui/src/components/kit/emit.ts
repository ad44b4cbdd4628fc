/**
 * Fires an event for the page a sub-component belongs to. Bubbles, not composed: it stays inside
 * the page's shadow root, where the page listens for it.
 */
export function emit(from: HTMLElement, type: string, detail: unknown): void {
  from.dispatchEvent(new CustomEvent(type, { detail, bubbles: true }));
}
