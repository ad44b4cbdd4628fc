import { html, nothing, type TemplateResult } from 'lit';
import type { ProviderRow } from '../../api/connections.ts';

/** Where a sign-in started, and so where its challenge and problems are shown: a provider card or an account card. */
export type Origin = { readonly kind: 'provider'; readonly provider: string } | { readonly kind: 'account'; readonly accountId: string };

/** What the page shows under a card for a sign-in started there (its problem, its challenge). */
export type OriginExtras = (origin: Origin) => TemplateResult;

export function sameOrigin(a: Origin | undefined, b: Origin): boolean {
  if (!a) return false;
  if (a.kind === 'provider' && b.kind === 'provider') return a.provider === b.provider;
  if (a.kind === 'account' && b.kind === 'account') return a.accountId === b.accountId;
  return false;
}

/** Element ids from provider names and account ids, which may hold any character. */
export function safeId(prefix: string, value: string): string {
  return `${prefix}-${value.replace(/[^A-Za-z0-9_-]/g, (c) => `_${c.charCodeAt(0).toString(16)}`)}`;
}

/** The words after a service's or account's name: demo, unofficial, not yet stable. */
export function badges(item: { readonly demo: boolean }, provider?: ProviderRow): TemplateResult {
  return html`${item.demo ? html`<span class="badge badge-demo">Demo</span>` : nothing}
  ${provider && !provider.official ? html`<span class="badge">Unofficial</span>` : nothing}
  ${provider && provider.stability !== 'stable' ? html`<span class="badge">${provider.stability}</span>` : nothing}`;
}
