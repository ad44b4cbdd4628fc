import type { Playlist } from '@opl/plugin-sdk';
import { trackSchema } from '../../plugin-sdk/src/schemas.ts';
import { scanDuplicates } from '../../core/services/organizer/organizer-duplicates.ts';
import { measure, round } from './bench-stats.ts';

/**
 * The duplicate-playlist scan over 500 playlists × 200 tracks from warm caches: the real
 * `scanDuplicates` (grouping by normalized name, reading only playlists with a same-named
 * partner, identity keys, pairing) with its playlist reads answered by an in-memory stand-in for
 * the playlist cache and an empty identity graph. Reported: the median time of a scan, the same
 * work's floor (one pass hashing every track id, measured in the same run) as a ratio, and the
 * provider calls made (goal: none — the stand-in counts any read that would leave the cache).
 * The PostgreSQL cache reads themselves are not part of this measure.
 *
 * `npm run bench -- organizer-duplicates`.
 */

const PLAYLISTS = 500;
const TRACKS = 200;
const GOAL_MS = 2_000;

function library(): Playlist[] {
  return Array.from({ length: PLAYLISTS }, (_, index) => {
    // Every fifth playlist has a same-named twin sharing most of its songs.
    const family = index % 5 === 1 ? index - 1 : index;
    const tracks = Array.from({ length: TRACKS }, (_, position) => {
      const id = `t${(family * 37 + position + (family === index ? 0 : position % 4 === 0 ? 100_000 : 0)) % 60_000}`;
      return trackSchema.parse({ id, title: `Song ${id}`, artist: 'Artist', isrc: position % 2 === 0 ? `ISRC${id}` : null, provider_uris: { bench: `bench:track:${id}` } });
    });
    return { id: `p${index}`, name: index % 5 === 1 ? `mix ${family}!` : `Mix ${family}`, description: null, photo: null, tracks, track_count: TRACKS, owner_id: 'me', owner_name: 'Me', created_at: null, updated_at: null, kind: 'PLAYLIST', artwork_uri: null, snapshot_id: `s${index}`, is_owned: true, is_followed: null, collaborative: false, provider_uris: {}, metadata: {} };
  });
}

export async function run(): Promise<Record<string, unknown>> {
  const playlists = library();
  const byId = new Map(playlists.map((playlist) => [playlist.id!, playlist]));
  let providerCalls = 0;
  let reads = 0;
  const deps = {
    execute: async () => [],
    connections: { get: async () => ({ provider: 'bench' }) as never },
    playlists: {
      list: async () => ({ account_id: 'a', provider: 'bench', cached: true, fetched_at: new Date().toISOString(), playlists: playlists.map(({ tracks: _tracks, ...summary }) => summary) }),
      read: async (_owner: string, _account: string, id: string) => {
        reads++;
        const playlist = byId.get(id);
        if (!playlist) providerCalls++;
        return { account_id: 'a', provider: 'bench', cached: true, fetched_at: new Date().toISOString(), playlist: playlist! };
      },
    },
  };
  let pairs = 0;
  const scan = await measure(5, async () => {
    const view = await scanDuplicates(deps, 'local', { scope: 'playlists', account_id: '00000000-0000-4000-8000-000000000000' });
    if (view.scope === 'playlists') pairs = view.pairs.length;
  });
  const floor = await measure(5, async () => {
    const seen = new Set<string>();
    for (const playlist of playlists) for (const track of playlist.tracks) seen.add(`${track.id}`);
    return seen.size;
  });
  return {
    playlists: PLAYLISTS,
    tracks_per_playlist: TRACKS,
    pairs_found: pairs,
    playlists_read_per_scan: reads / 6,
    provider_calls: providerCalls,
    scan_ms: scan.median_ms,
    floor_ms: floor.median_ms,
    ratio_to_floor: round(scan.median_ms / Math.max(floor.median_ms, 0.001)),
    goal_ms: GOAL_MS,
    within_goal: scan.median_ms < GOAL_MS,
  };
}
