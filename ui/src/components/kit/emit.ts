/**
 * Fires an event for the page a sub-component belongs to. Bubbles, not composed: it stays inside
 * the page's shadow root, where the page listens for it.
 */
export function emit(from: HTMLElement, type: string, detail: unknown): void {
  from.dispatchEvent(new CustomEvent(type, { detail, bubbles: true }));
}

/**
 * Asks the page to say `text` in its polite live region. Composed: a component with a shadow root
 * of its own sends it out of that root to the page that holds it.
 */
export function announce(from: HTMLElement, text: string): void {
  from.dispatchEvent(new CustomEvent('opl-announce', { detail: text, bubbles: true, composed: true }));
}
