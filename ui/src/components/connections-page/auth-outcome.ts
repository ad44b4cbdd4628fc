import { parseAuthOutcome } from '../../api/connections.ts';

/**
 * The engine's sign-in callback sends the browser to `#/connections?connected=…` (or
 * `?auth_error=…`). The app's router normalises the hash, dropping that query, as soon as the
 * shell connects and on every hashchange — before this page exists or hears the event. So the
 * outcome is caught here: at module load (which runs before `<opl-app>` is defined) and by a
 * hashchange listener registered ahead of the router's.
 */

let pendingHash: string | undefined;

function remember(hash: string): void {
  if (parseAuthOutcome(hash)) pendingHash = hash;
}

if (typeof window !== 'undefined') {
  remember(window.location.hash);
  window.addEventListener('hashchange', (event) => remember(new URL(event.newURL).hash));
}

/** The hash that carried an outcome, once: a second call (or a reload) finds nothing to announce. */
export function takeOutcomeHash(): string | undefined {
  const hash = pendingHash;
  pendingHash = undefined;
  return hash;
}
