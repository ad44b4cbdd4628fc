import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAvailableOn, seedCatalog } from '../../fakes/seed-catalog.ts';
import { startMigrationHarness, type MigrationHarness } from '../migrations/migration-harness.ts';
import { organizerClient } from './organizer-harness.ts';

/**
 * The provider table's other rows through HTTP against the fakes: the unofficial video-music
 * provider (YouTube Music: permanent deletion only on a live owned=true read, song removal by each
 * occurrence's setVideoId) and official provider B (TIDAL: deletion only for playlists of its
 * owner-filtered listing, no song removal although the plugin declares REMOVE_TRACKS).
 */

const catalog = seedCatalog();
const tracksOn = (provider: string) => [...catalog.tracks.values()].filter((track) => track.mediaType === 'track' && isAvailableOn(track, provider) && isAvailableOn(track, 'spotify')).map((track) => track.key);
const yt = tracksOn('ytmusic');
const td = tracksOn('tidal');

let h: MigrationHarness;
let client: ReturnType<typeof organizerClient>;

beforeAll(async () => {
  h = await startMigrationHarness({
    spotifyLibrary: {},
    tidalLibrary: {
      playlists: [
        { name: 'Old Drafts', trackKeys: [td[0]!, td[1]!] },
        { name: 'Kept Tidal', trackKeys: [td[2]!, td[2]!, td[3]!] },
      ],
      followed: [{ name: 'Friend On Tidal', trackKeys: [td[4]!] }],
    },
    ytmusicLibrary: {
      playlists: [
        { name: 'Repeats', trackKeys: [yt[0]!, yt[1]!, yt[0]!, yt[2]!, yt[0]!] },
        { name: 'Café Delete', trackKeys: [yt[3]!] },
      ],
      followed: [{ name: 'Curated Elsewhere', trackKeys: [yt[4]!] }],
    },
  });
  client = organizerClient(h);
}, 300_000);

afterAll(async () => {
  await h?.close();
});

describe('the unofficial video-music provider', () => {
  const ytPlaylist = (name: string) => h.ytmusic!.playlistByName(h.ytmusicUser!.userId, name)!;

  it('offers no safe removal, and says why', async () => {
    const answer = await client.preflight({ account_id: h.ytmusicAccount, action: 'unfollow_playlist', playlist_ids: [ytPlaylist('Curated Elsewhere').id] });
    expect(answer.status).toBe(422);
    expect((answer.json as { detail: string }).detail).toMatch(/no verified operation/);
    expect(h.ytmusic!.playlist(ytPlaylist('Curated Elsewhere').id)).not.toBeNull();
  });

  it('refuses to delete a playlist a live read does not report as owned', async () => {
    const curated = ytPlaylist('Curated Elsewhere');
    const answer = await client.preflight({ account_id: h.ytmusicAccount, action: 'delete_playlist', playlist_ids: [curated.id] });
    expect(answer.status).toBe(422);
    expect((answer.json as { detail: string }).detail).toMatch(/ownership is not confirmed/);
    expect(h.ytmusic!.playlist(curated.id)).not.toBeNull();
  });

  it('deletes an owned playlist only with its exact name typed, compared after Unicode normalization', async () => {
    const target = ytPlaylist('Café Delete');
    const preflight = await client.preflightOk({ account_id: h.ytmusicAccount, action: 'delete_playlist', playlist_ids: [target.id] });
    expect(preflight.confirmation_phrase).toBe('Café Delete');
    expect(preflight.playlists[0]!.ownership).toMatchObject({ check: 'live_read', evidence: expect.stringMatching(/owned=true/) });
    for (const typed of [null, 'café delete', 'Café Delete ', 'Cafe Delete', 'Café']) {
      const refused = await client.createJob({ preflight_token: preflight.token, confirmation: typed });
      expect(refused.status).toBe(422);
      expect(refused.json).toMatchObject({ code: 'organizer_confirmation_mismatch' });
    }
    expect(h.ytmusic!.playlist(target.id)).not.toBeNull();
    // The same text in decomposed form (e + combining acute) is the same phrase.
    const decomposed = 'Café Delete'.normalize('NFD');
    expect(decomposed).not.toBe('Café Delete');
    const started = await client.createJob({ preflight_token: preflight.token, confirmation: decomposed });
    expect(started.status, started.text).toBe(202);
    const job = await client.waitForJob((started.json as { id: string }).id);
    expect(job.status).toBe('completed');
    expect(h.ytmusic!.playlist(target.id)).toBeNull();
  });

  it('removes one occurrence by its setVideoId and leaves the other copies', async () => {
    const repeats = ytPlaylist('Repeats');
    expect(new Set(repeats.setVideoIds).size).toBe(5);
    const listed = await h.api(`/api/playlists/${encodeURIComponent(repeats.id)}?account_id=${h.ytmusicAccount}&refresh=true`);
    expect(listed.status, listed.text).toBe(200);
    const tracks = (listed.json as { playlist: { tracks: { provider_uris: Record<string, string>; source_item_id: string | null }[] } }).playlist.tracks;
    const middle = tracks[2]!;
    const { preflight, job } = await client.run({ account_id: h.ytmusicAccount, action: 'remove_tracks', playlist_id: repeats.id, entries: [{ position: 2, uri: middle.provider_uris['ytmusic'], entry_id: middle.source_item_id }] });
    expect(preflight.playlists[0]!.warnings).toContainEqual(expect.objectContaining({ code: 'unselected_copies_stay', positions: [0, 4] }));
    expect(job.status, JSON.stringify(job)).toBe('completed');
    const after = h.ytmusic!.playlist(repeats.id)!;
    expect(after.videoIds).toEqual([repeats.videoIds[0], repeats.videoIds[1], repeats.videoIds[3], repeats.videoIds[4]]);
    expect(after.setVideoIds).toEqual([repeats.setVideoIds[0], repeats.setVideoIds[1], repeats.setVideoIds[3], repeats.setVideoIds[4]]);

    // Undo: the entry comes back at its position (as a new occurrence with its own setVideoId).
    const undo = await h.api(`/api/organizer/jobs/${job.id}/undo`, { method: 'POST' });
    expect(undo.status, undo.text).toBe(202);
    const undone = await client.waitForJob((undo.json as { id: string }).id);
    expect(undone.status, JSON.stringify(undone)).toBe('completed');
    expect(h.ytmusic!.playlist(repeats.id)!.videoIds).toEqual(repeats.videoIds);
  });

  it('refuses an entry id that is not the entry at that position', async () => {
    const repeats = ytPlaylist('Repeats');
    const listed = await h.api(`/api/playlists/${encodeURIComponent(repeats.id)}?account_id=${h.ytmusicAccount}&refresh=true`);
    const first = (listed.json as { playlist: { tracks: { provider_uris: Record<string, string> }[] } }).playlist.tracks[0]!;
    const answer = await client.preflight({ account_id: h.ytmusicAccount, action: 'remove_tracks', playlist_id: repeats.id, entries: [{ position: 0, uri: first.provider_uris['ytmusic'], entry_id: repeats.setVideoIds[3] }] });
    expect(answer.status).toBe(422);
    expect((answer.json as { detail: string }).detail).toMatch(/another entry id/);
    expect(h.ytmusic!.playlist(repeats.id)!.setVideoIds).toEqual(repeats.setVideoIds);
  });
});

describe('official provider B', () => {
  const own = (name: string) => h.tidal.playlistsOf(h.tidalUser.userId).find((playlist) => playlist.name === name)!;

  it('lists song removal as unavailable with the reason, though the plugin can remove items', async () => {
    const answer = await client.playlists(h.tidalAccount);
    expect(answer.status, answer.text).toBe(200);
    const kept = (answer.json as { playlists: { name: string; relation: string; actions: Record<string, { available: boolean; reason: string | null }> }[] }).playlists.find((row) => row.name === 'Kept Tidal')!;
    expect(kept.relation).toBe('owned');
    expect(kept.actions['remove_tracks']).toMatchObject({ available: false, reason: expect.stringMatching(/provider table/) });
    expect(kept.actions['unfollow_playlist']!.available).toBe(false);
    expect(kept.actions['delete_playlist']!.available).toBe(true);
    const refused = await client.preflight({ account_id: h.tidalAccount, action: 'remove_tracks', playlist_id: own('Kept Tidal').id, entries: [{ position: 0, uri: 'tidal:track:1' }] });
    expect(refused.status).toBe(422);
    expect(h.tidal.playlistEntries(own('Kept Tidal').id)).toHaveLength(3);
  });

  it('refuses to delete a followed playlist missing from the owner-filtered listing', async () => {
    const friend = [...h.tidal.state.playlists.values()].find((playlist) => playlist.name === 'Friend On Tidal')!;
    const answer = await client.preflight({ account_id: h.tidalAccount, action: 'delete_playlist', playlist_ids: [friend.id] });
    expect(answer.status).toBe(422);
    expect((answer.json as { detail: string }).detail).toMatch(/owner-filtered|own playlists/);
    expect(h.tidal.playlistEntries(friend.id)).not.toBeNull();
  });

  it('deletes a playlist of its owner-filtered listing', async () => {
    const drafts = own('Old Drafts');
    const { preflight, job } = await client.run({ account_id: h.tidalAccount, action: 'delete_playlist', playlist_ids: [drafts.id] });
    expect(preflight.playlists[0]!.ownership).toMatchObject({ check: 'owner_filtered_listing' });
    expect(job.status).toBe('completed');
    expect(h.tidal.playlistEntries(drafts.id)).toBeNull();
  });

  it('counts a playlist that vanished between preflight and job as deleted', async () => {
    const kept = own('Kept Tidal');
    const preflight = await client.preflightOk({ account_id: h.tidalAccount, action: 'delete_playlist', playlist_ids: [kept.id] });
    h.tidal.state.playlists.delete(kept.id);
    const started = await client.createJob({ preflight_token: preflight.token, confirmation: 'Kept Tidal' });
    expect(started.status, started.text).toBe(202);
    const job = await client.waitForJob((started.json as { id: string }).id);
    expect(job).toMatchObject({ status: 'completed', items: [{ status: 'succeeded', notes: ['The playlist was already gone.'] }] });
    expect(h.tidal.requests.filter((request) => request.method === 'DELETE' && request.path.includes(kept.id))).toEqual([]);
  });
});
