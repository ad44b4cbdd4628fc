import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAppleMusic, type FakeAppleMusic } from '../../fakes/applemusic/index.ts';
import { developerTokenProblem, trustedKeyFromPem } from '../../fakes/applemusic/developer-token.ts';
import type { FakeAccountTokens } from '../../fakes/fake-provider.ts';
import { demoLibrary } from '../../fakes/seed-catalog.ts';
import { createPublicKey } from 'node:crypto';
import { startConnectionApp, type ConnectionApp } from '../support/connection-app.ts';
import { demoPlaylistKeysOn, expectReconnectionAsked, listAccounts, listDemoPlaylists, providerListing, type AccountView } from '../support/provider-connection-kit.ts';

/**
 * Connecting an Apple Music account end to end through the HTTP API: the engine is configured with
 * a developer key (as `OPL_PROVIDER_CLIENTS_FILE` would give it), `begin` answers a form challenge
 * carrying the developer token MusicKit needs, `complete` takes the music user token, and every
 * later call carries the developer JWT the engine signs plus the user token — verified by the fake.
 * An expired user token cannot be renewed: the account asks for reconnection and reconnects.
 */

interface Challenge {
  shape: string;
  state: string;
  developer_token?: string;
  form?: { fields: { name: string; secret: boolean }[]; submit_label: string };
}

let fake: FakeAppleMusic;
let app: ConnectionApp;
let user: FakeAccountTokens;

const api = (path: string, init?: RequestInit) => app.api(path, init);

async function begin(body: Record<string, unknown> = {}): Promise<Challenge> {
  const { status, json } = await api('/api/auth/applemusic/begin', { method: 'POST', body: JSON.stringify(body) });
  expect(status).toBe(200);
  return json as Challenge;
}

async function complete(state: string, token: string): Promise<{ status: number; json: unknown }> {
  return api('/api/auth/applemusic/complete', { method: 'POST', body: JSON.stringify({ state, values: { music_user_token: token } }) });
}

const accounts = () => listAccounts(app);

beforeAll(async () => {
  fake = await startFakeAppleMusic({ appendVisibleAfterReads: 1 });
  user = fake.createAccount({ displayName: 'Ada Listener', library: demoLibrary() });
  app = await startConnectionApp({ providerOriginOverrides: fake.originOverrides, providerClients: { applemusic: { developer_key: fake.developerKey } } });
}, 240_000);

afterAll(async () => {
  await app?.close();
  await fake?.close();
});

describe('connecting Apple Music', () => {
  let accountId = '';

  it('lists Apple Music as connectable, with no removal, deletion, unfollow or mirror', async () => {
    const apple = await providerListing(app, 'applemusic');
    expect(apple).toMatchObject({
      connectable: true,
      auth_kinds: ['DEVELOPER_USER_TOKEN'],
      has_isrc: true,
      can_target: true,
      can_remove_tracks: false,
      can_delete_playlist: false,
      can_unfollow_playlist: false,
      can_mirror: false,
    });
    expect(String(apple!['mirror_unavailable_reason'])).toMatch(/cannot remove/);
  });

  it('answers begin with a form and a developer token the provider accepts', async () => {
    const challenge = await begin();
    expect(challenge.shape).toBe('form');
    expect(challenge.form!.fields.map((field) => field.name)).toEqual(['music_user_token']);
    expect(challenge.form!.fields[0]!.secret).toBe(true);
    const trusted = [trustedKeyFromPem(fake.developerKey.team_id, fake.developerKey.key_id, createPublicKey(fake.developerKey.private_key_pem).export({ type: 'spki', format: 'pem' }).toString())];
    expect(developerTokenProblem(challenge.developer_token ?? null, trusted)).toBeNull();
  });

  it('refuses a music user token the provider does not know, and stores nothing', async () => {
    const challenge = await begin();
    const { status, json } = await complete(challenge.state, 'mut-not-a-real-token-000000000000');
    expect(status).toBe(422);
    expect(json).toMatchObject({ code: 'auth_failed' });
    expect(await accounts()).toHaveLength(0);
  });

  it('connects with the pasted music user token and lists the account without a token', async () => {
    const challenge = await begin({ account_label: 'Phone' });
    const { status, json } = await complete(challenge.state, user.accessToken);
    expect(status).toBe(200);
    const account = (json as { account: AccountView }).account;
    accountId = account.id;
    expect(account).toMatchObject({ provider: 'applemusic', display_name: 'Apple Music (United States)', provider_user_id: 'me', account_label: 'Phone', status: 'connected', auth_kind: 'DEVELOPER_USER_TOKEN' });
    expect(await accounts()).toHaveLength(1);
    // One use only.
    expect((await complete(challenge.state, user.accessToken)).status).toBe(404);
  });

  it('reads playlists and a playlist with catalog ISRCs, sending the signed developer token and the user token', async () => {
    const before = fake.requests.length;
    const { playlists } = await listDemoPlaylists(app, accountId);
    const bigMix = playlists.find((playlist) => playlist.name === 'Big Mix')!;
    const read = await api(`/api/playlists/${encodeURIComponent(bigMix.id)}?account_id=${accountId}`);
    expect(read.status).toBe(200);
    const tracks = (read.json as { playlist: { tracks: { isrc: string | null; provider_uris: Record<string, string> }[] } }).playlist.tracks;
    const onApple = demoPlaylistKeysOn('Big Mix', 'applemusic');
    expect(tracks).toHaveLength(onApple.length);
    expect(tracks.filter((track) => track.isrc).length).toBeGreaterThan(onApple.length * 0.9);
    expect(tracks[0]!.provider_uris['applemusic']).toMatch(/^applemusic:song:\d+$/);

    const sent = fake.requests.slice(before).filter((request) => request.path.startsWith('/v1/'));
    expect(sent.length).toBeGreaterThan(0);
    const trusted = [trustedKeyFromPem(fake.developerKey.team_id, fake.developerKey.key_id, createPublicKey(fake.developerKey.private_key_pem).export({ type: 'spki', format: 'pem' }).toString())];
    for (const request of sent) {
      expect(request.headers['music-user-token']).toBe(user.accessToken);
      expect(developerTokenProblem(/^Bearer (\S+)$/.exec(request.headers['authorization'] ?? '')?.[1] ?? null, trusted)).toBeNull();
      expect(request.status).toBe(200);
    }
  });

  it('asks for reconnection when the music user token expires, and reconnects the same account', async () => {
    fake.expireAccessToken(user.accessToken);
    await expectReconnectionAsked(app, accountId);

    const fresh = fake.issueUserToken(user.userId);
    const challenge = await begin({ reconnect_account_id: accountId });
    const { status, json } = await complete(challenge.state, fresh);
    expect(status).toBe(200);
    expect((json as { account: AccountView }).account).toMatchObject({ id: accountId, status: 'connected', account_label: 'Phone' });
    expect((await api(`/api/playlists?account_id=${accountId}&refresh=true`)).status).toBe(200);
  });

  it('never answers with a token', () => {
    const everything = app.answers.join('\n');
    expect(everything).not.toContain(user.accessToken);
    expect(everything).not.toContain(fake.developerKey.private_key_pem.split('\n')[1]!);
    for (const line of app.testApp.logs) expect(line).not.toContain(user.accessToken);
  });
});
