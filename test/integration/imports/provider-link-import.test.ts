import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCatalog } from '../../fakes/seed-catalog.ts';
import { connectByRedirect, startMigrationHarness, type MigrationHarness } from '../migrations/migration-harness.ts';

/**
 * Provider playlist links pasted into the URL import: the engine parses the playlist id as the
 * provider plugin declares it, reads the playlist through one of the owner's connected accounts
 * (Spotify and TIDAL fakes, connected through the real OAuth flow) and keeps it as an import
 * record; it never requests the provider's web page. When no account can read it, the answer is
 * the structured action to connect one.
 */

interface Problem {
  status: number;
  code: string;
  detail: string;
  reason?: string;
  action?: { type: string; provider: string; display_name: string; account_id?: string };
  retry_after_s?: number;
}

interface Preview {
  id: string;
  kind: string;
  format: string;
  playlists: Array<{ name: string; track_count: number; tracks: Array<{ title: string; provider_uris: Record<string, string> }> }>;
}

const tracks = [...seedCatalog().tracks.values()].filter((track) => track.mediaType === 'track' && track.availableOn === undefined).slice(0, 8);
const keys = (from: number, to: number) => tracks.slice(from, to).map((track) => track.key);

describe('POST /api/imports/url-preview with provider playlist links', () => {
  let h: MigrationHarness;
  let roadTripId: string;
  let friendMixId: string;
  let tidalFocusId: string;
  let strangerAccount: string;

  beforeAll(async () => {
    h = await startMigrationHarness({
      spotifyLibrary: { playlists: [{ name: 'Road Trip', trackKeys: keys(0, 5) }], followed: [{ name: 'Friend Mix', trackKeys: keys(5, 8) }] },
      tidalLibrary: { playlists: [{ name: 'Focus', trackKeys: keys(2, 6) }] },
    });
    roadTripId = h.spotify.playlistByName(h.spotifyUser.userId, 'Road Trip')!.id;
    friendMixId = h.spotify.library(h.spotifyUser.userId)!.playlists.map((id) => h.spotify.playlist(id)!).find((playlist) => playlist.name === 'Friend Mix')!.id;
    tidalFocusId = h.tidal.playlistsOf(h.tidalUser.userId).find((playlist) => playlist.name === 'Focus')!.id;
    // A second Spotify account of the same owner, which cannot see the first one's playlists.
    const stranger = h.spotify.createAccount({ displayName: 'Second Listener', library: {} });
    h.spotify.setAuthorizeUser(stranger.userId);
    strangerAccount = await connectByRedirect(h.baseUrl, 'spotify');
  }, 300_000);

  afterAll(async () => {
    await h?.close();
  });

  const preview = (url: string, accountId?: string) => h.api('/api/imports/url-preview', { method: 'POST', body: JSON.stringify({ url, ...(accountId ? { account_id: accountId } : {}) }) });
  const webPageRequests = () => [...h.spotify.requests, ...h.tidal.requests].filter((request) => /^\/(browse\/)?playlist\//.test(request.path));

  it('reads a Spotify playlist link through the connected account into an import record', async () => {
    const { status, json, text } = await preview(`https://open.spotify.com/playlist/${roadTripId}?si=0123abcd`, h.spotifyAccount);
    expect(status, text).toBe(201);
    const body = json as Preview;
    expect(body).toMatchObject({ kind: 'url', format: 'spotify', playlists: [{ name: 'Road Trip', track_count: 5 }] });
    expect(body.playlists[0]!.tracks.map((track) => track.title)).toEqual(tracks.slice(0, 5).map((track) => track.title));
    expect(body.playlists[0]!.tracks.every((track) => track.provider_uris['spotify']?.startsWith('spotify:track:'))).toBe(true);
    // The record holds every track and reads back like any other import.
    const record = await h.api(`/api/imports/${body.id}`);
    expect(record.status).toBe(200);
    expect((record.json as Preview).playlists[0]!.tracks).toHaveLength(5);
    expect(webPageRequests()).toEqual([]);
  });

  it('tries every connected account when none is chosen: the one that can read the playlist wins', async () => {
    const { status, json, text } = await preview(`https://open.spotify.com/playlist/${roadTripId}`);
    expect(status, text).toBe(201);
    expect((json as Preview).playlists[0]!.name).toBe('Road Trip');
  });

  it('reads a TIDAL link (browse form) through the TIDAL account', async () => {
    const { status, json, text } = await preview(`https://tidal.com/browse/playlist/${tidalFocusId}`);
    expect(status, text).toBe(201);
    expect(json as Preview).toMatchObject({ format: 'tidal', playlists: [{ name: 'Focus', track_count: 4 }] });
    expect(webPageRequests()).toEqual([]);
  });

  it('answers "connect a source account" when no connected account can read the playlist', async () => {
    const cases = [
      // Someone else's playlist: Spotify lets only owners and collaborators read its items.
      [`https://open.spotify.com/playlist/${friendMixId}`, undefined],
      // A playlist that does not exist.
      ['https://open.spotify.com/playlist/0000000000000000000000', undefined],
      // The chosen account is not the one that can read it.
      [`https://open.spotify.com/playlist/${roadTripId}`, strangerAccount],
    ] as const;
    for (const [url, account] of cases) {
      const { status, json, text } = await preview(url, account);
      expect(status, text).toBe(422);
      expect((json as Problem).action).toEqual({ type: 'connect_source_account', provider: 'spotify', display_name: 'Spotify' });
      expect((json as Problem).detail).toMatch(/connect/i);
    }
  });

  it('answers "connect a source account" for a provider with no connected account, reading nothing', async () => {
    const before = h.spotify.requests.length + h.tidal.requests.length;
    for (const [url, provider] of [
      ['https://www.deezer.com/en/playlist/908622995', 'deezer'],
      ['https://www.youtube.com/playlist?list=PLx0sYbCqOb8TBPRdmBHs5Iftvv9TPboYG', 'youtube'],
    ] as const) {
      const { status, json, text } = await preview(url);
      expect(status, text).toBe(422);
      expect((json as Problem).action).toMatchObject({ type: 'connect_source_account', provider });
    }
    expect(h.spotify.requests.length + h.tidal.requests.length).toBe(before);
  });

  it('refuses links whose playlist id is not of the declared form before any provider request', async () => {
    const before = h.spotify.requests.length;
    for (const url of ['https://open.spotify.com/playlist/short', 'https://open.spotify.com/playlist/', 'https://www.youtube.com/playlist', 'https://www.youtube.com/playlist?list=a&list=b', 'https://tidal.com/playlist/not-a-uuid']) {
      const { status, json, text } = await preview(url);
      expect(status, `${url}: ${text}`).toBe(422);
      expect((json as Problem).reason).toBe('invalid_playlist_link');
    }
    expect(h.spotify.requests.length).toBe(before);
  });

  it('refuses an account_id that is not a connected account of the link\'s provider', async () => {
    const { status, json } = await preview(`https://open.spotify.com/playlist/${roadTripId}`, h.tidalAccount);
    expect(status).toBe(422);
    expect((json as Problem).detail).toMatch(/not one of your connected Spotify accounts/);
  });

  it('passes the provider\'s rate limit on as 429 with Retry-After', async () => {
    h.spotify.failNext({ kind: 'rate_limit', retryAfterS: 3, method: 'GET', pathPrefix: '/v1/playlists', times: 20 });
    try {
      const { status, json, headers, text } = await preview(`https://open.spotify.com/playlist/${roadTripId}`, h.spotifyAccount);
      expect(status, text).toBe(429);
      expect((json as Problem).code).toBe('provider_rate_limited');
      expect(Number(headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    } finally {
      h.spotify.clearFailures();
    }
  });

  it('shares a playlist of a connected account without the account\'s data', async () => {
    const created = await h.api('/api/shares', { method: 'POST', body: JSON.stringify({ source_provider: 'spotify', source_account_id: h.spotifyAccount, playlist_id: roadTripId }) });
    expect(created.status, created.text).toBe(201);
    const { token } = created.json as { token: string };
    const snapshot = await fetch(`${h.baseUrl}/api/public/shares/${token}`);
    const bundle = (await snapshot.json()) as { source_provider: string; playlists: Array<Record<string, unknown> & { tracks: Array<Record<string, unknown>> }> };
    expect(bundle.source_provider).toBe('spotify');
    expect(bundle.playlists[0]).toMatchObject({ name: 'Road Trip', owner_id: null, owner_name: null, snapshot_id: null });
    expect(bundle.playlists[0]!.tracks).toHaveLength(5);
    expect(bundle.playlists[0]!.tracks.every((track) => track.added_at === null && track.source_item_id === null)).toBe(true);
    expect(JSON.stringify(bundle)).not.toContain(h.spotifyUser.userId);
    // The wrong provider for the account is refused.
    const mismatch = await h.api('/api/shares', { method: 'POST', body: JSON.stringify({ source_provider: 'tidal', source_account_id: h.spotifyAccount, playlist_id: roadTripId }) });
    expect(mismatch.status).toBe(404);
  });

  it('asks to reconnect the account when the provider keeps refusing its credential (last: it marks the accounts)', async () => {
    h.spotify.failNext({ kind: 'expired_token', pathPrefix: '/v1/', times: 50 });
    try {
      const { status, json, text } = await preview(`https://open.spotify.com/playlist/${roadTripId}`, h.spotifyAccount);
      expect(status, text).toBe(409);
      expect((json as Problem).action).toEqual({ type: 'reconnect_account', provider: 'spotify', account_id: h.spotifyAccount, display_name: 'Spotify' });
    } finally {
      h.spotify.clearFailures();
    }
  });
});
