import { escapeHtml } from '../fake-provider.ts';

/**
 * The pieces of an authorize step every redirect-flow fake shares: adding answer parameters to the
 * client's redirect URI, checking that URI against the client's registration, and carrying the
 * request's parameters through a consent form. The pages' wording and error bodies stay each
 * provider's own.
 */

/** `base` with `params` set on its query (null values left out). */
export function withParams(base: string, params: Record<string, string | null>): string {
  const url = new URL(base);
  for (const [name, value] of Object.entries(params)) if (value !== null) url.searchParams.set(name, value);
  return url.toString();
}

/** An http(s) URI the client registered (any, when it registered none). */
export function redirectUriAllowed(client: { readonly redirectUris: readonly string[] } | undefined, redirectUri: string): boolean {
  try {
    const parsed = new URL(redirectUri);
    return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && (!client || client.redirectUris.length === 0 || client.redirectUris.includes(redirectUri));
  } catch {
    return false;
  }
}

/** The request's parameters as hidden inputs, so the consent form's POST repeats the request. */
export function hiddenFields(params: URLSearchParams): string {
  return [...params.entries()].map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`).join('');
}

/** The consent form's two buttons. */
export function consentButtons(cancelValue = 'deny'): string {
  return `<button type="submit" name="decision" value="agree">Agree</button>
<button type="submit" name="decision" value="${escapeHtml(cancelValue)}">Cancel</button>`;
}
