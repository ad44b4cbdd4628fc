import { expect } from 'vitest';
import { demoLibrary, isAvailableOn, seedCatalog } from '../../fakes/seed-catalog.ts';
import type { ConnectionApp } from './connection-app.ts';

/**
 * The steps every provider's connection test takes through the HTTP API (the harness itself:
 * connection-app.ts): list the accounts, run the browser's part of a redirect flow, read the
 * demo library's playlists back, see a dead token turn into "reconnect", and prove that no
 * secret reached an answer or a log line. What a provider does differently stays in its test.
 */

type Api = Pick<ConnectionApp, 'api'>;

/** An account as `GET /api/auth/accounts` lists it (the fields the connection tests look at). */
export interface AccountView {
  id: string;
  provider: string;
  display_name: string | null;
  provider_user_id: string | null;
  account_label: string | null;
  status: string;
  scopes: string[];
  expires_at: string | null;
  demo: boolean;
  auth_kind: string | null;
}

/** A playlist as `GET /api/playlists` lists it. */
export interface ListedPlaylist {
  id: string;
  name: string;
  kind: string;
  snapshot_id: string | null;
}

/** The demo library's playlists every provider's fake holds for its listener. */
export const DEMO_PLAYLIST_NAMES = ['Road Trip 2024', 'Big Mix', 'Friends Weekly'];

export async function listAccounts(app: Api): Promise<AccountView[]> {
  const { json } = await app.api('/api/auth/accounts');
  return (json as { accounts: AccountView[] }).accounts;
}

/** The provider's entry in `GET /providers`. */
export async function providerListing(app: Api, provider: string): Promise<Record<string, unknown> | undefined> {
  const { json } = await app.api('/providers');
  return (json as { providers: Record<string, unknown>[] }).providers.find((entry) => entry['name'] === provider);
}

/**
 * The browser's part of a redirect flow: `begin`, the provider's authorize page (which the fake
 * answers at once for its authorizing user), then the engine's callback. Returns where the
 * engine sends the browser afterwards.
 */
export async function connectByRedirect(app: ConnectionApp, provider: string, body: Record<string, unknown> = {}): Promise<{ location: string }> {
  const begin = await app.api(`/api/auth/${provider}/begin`, { method: 'POST', body: JSON.stringify(body) });
  expect(begin.status).toBe(200);
  const challenge = begin.json as { shape: string; redirect_url: string };
  expect(challenge.shape).toBe('redirect');
  const authorize = await fetch(challenge.redirect_url, { redirect: 'manual' });
  expect(authorize.status).toBe(302);
  const callback = authorize.headers.get('location')!;
  expect(callback.startsWith(`${app.baseUrl}/api/auth/${provider}/callback?`)).toBe(true);
  const landed = await fetch(callback, { redirect: 'manual' });
  app.answers.push(await landed.text());
  expect(landed.status).toBe(303);
  return { location: landed.headers.get('location')! };
}

/** The account id of the Connections page address a finished redirect flow lands on. */
export function connectedAccountId(location: string): string {
  const match = /^\/#\/connections\?connected=([0-9a-f-]{36})$/.exec(location);
  expect(match, location).not.toBeNull();
  return match![1]!;
}

/** A token the provider no longer accepts: the account's next read asks for reconnection, and the account says so. */
export async function expectReconnectionAsked(app: Api, accountId: string): Promise<void> {
  const failed = await app.api(`/api/playlists?account_id=${accountId}&refresh=true`);
  expect(failed.status).toBe(409);
  expect(failed.json).toMatchObject({ code: 'provider_auth_expired', action: { type: 'reconnect_account' } });
  expect((await listAccounts(app))[0]!.status).toBe('reauth_required');
}

/** The account's playlists, of which the demo library's must be some (`cached`: served from the engine's cache). */
export async function listDemoPlaylists(app: Api, accountId: string): Promise<{ playlists: ListedPlaylist[]; cached: boolean }> {
  const listed = await app.api(`/api/playlists?account_id=${accountId}`);
  expect(listed.status, JSON.stringify(listed.json)).toBe(200);
  const list = listed.json as { playlists: ListedPlaylist[]; cached: boolean };
  expect(list.playlists.map((playlist) => playlist.name)).toEqual(expect.arrayContaining(DEMO_PLAYLIST_NAMES));
  return list;
}

/** The seed keys of a demo library playlist the provider has (`distinct`: a provider that holds each track once). */
export function demoPlaylistKeysOn(name: string, provider: string, options: { distinct?: boolean } = {}): string[] {
  const keys = demoLibrary().playlists!.find((entry) => entry.name === name)!.trackKeys;
  return (options.distinct ? [...new Set(keys)] : keys).filter((key) => isAvailableOn(seedCatalog().tracks.get(key)!, provider));
}

/** No secret the test collected (issued tokens, codes, client secrets) appears in an API answer or a log line. */
export function expectNoSecretLeaked(secrets: Iterable<string>, app: Pick<ConnectionApp, 'answers' | 'testApp'>, minimum: number): void {
  const issued = new Set(secrets);
  expect(issued.size).toBeGreaterThan(minimum);
  const everything = [...app.answers, ...app.testApp.logs].join('\n');
  for (const secret of issued) expect(everything.includes(secret), 'a secret leaked').toBe(false);
}
