import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../core/app/index.ts';
import { loadConfig } from '../../core/config/index.ts';
import { createLogger } from '../../core/logging/logger.ts';
import { WorkspaceService } from '../../core/services/library/index.ts';
import { LOCAL_OWNER_ID } from '../../core/services/owner/owner.ts';
import { findFreePort } from '../../core/storage/embedded/free-port.ts';
import { sqlExecutors, type SqlExecute } from '../../core/storage/sql/executors.ts';
import { DIGEST_MIGRATABLE, encodeTrackDigest, TRACK_DIGEST_VERSION } from '../../core/services/playlists/track-digest.ts';
import type { Track } from '@opl/plugin-sdk';
import { measure, round } from './bench-stats.ts';

/**
 * The Library workspace built from warm caches: 5 accounts × 500 playlists × 200 tracks written
 * straight into the playlist cache of a real engine's embedded PostgreSQL (each account's playlist
 * `n` shares most songs with the other accounts' playlist `n`, half the songs carry an ISRC and the
 * identity graph knows those) with each playlist's track digest as a refresh writes it, then `GET /api/library/workspace`'s work (`WorkspaceService.workspace`)
 * timed, with the process's peak resident memory, and the provider calls made — the service's
 * playlist reader is a stand-in that counts any call (goal: none; under 3 s and 300 MiB). Baseline
 * in the same run: the bare SQL read of the same cached tracks (`ratio_to_cache_read`).
 *
 * `npm run bench -- library-workspace`. `OPL_BENCH_LIBRARY_PLAYLISTS` changes the playlists per account.
 */

const ACCOUNTS = ['spotify', 'tidal', 'deezer', 'ytmusic', 'applemusic'];
const PLAYLISTS = Number(process.env['OPL_BENCH_LIBRARY_PLAYLISTS'] ?? 500);
const TRACKS = 200;
const GOAL_MS = 3_000;
const GOAL_MIB = 300;

/** Seeds accounts, list caches, track caches and identities in SQL, server-side. */
function seedStatements(): string[] {
  // Song number of account a's playlist p, position i: shared across accounts except every 10th.
  const song = `((p * 37 + i + case when a > 1 and i % 10 = 0 then 100000 * a else 0 end) % 1000000)`;
  return [
    `insert into provider_account (id, owner_id, provider, provider_user_id, display_name, status)
       select ('00000000-0000-4000-8000-00000000000' || a)::uuid, '${LOCAL_OWNER_ID}', (array[${ACCOUNTS.map((name) => `'${name}'`).join(',')}])[a], 'bench-' || a, 'Bench ' || a, 'connected'
       from generate_series(1, ${ACCOUNTS.length}) a`,
    `insert into playlist_cache (owner_id, provider_account_id, scope, snapshot_id, payload, fetched_at)
       select '${LOCAL_OWNER_ID}', ('00000000-0000-4000-8000-00000000000' || a)::uuid, 'list', null,
              (select jsonb_agg(jsonb_build_object('id', 'p' || p, 'name', 'Mix ' || p, 'kind', 'PLAYLIST', 'snapshot_id', 's' || p, 'track_count', ${TRACKS}, 'updated_at', null) order by p)
                 from generate_series(0, ${PLAYLISTS - 1}) p), now()
       from generate_series(1, ${ACCOUNTS.length}) a`,
    `insert into playlist_cache (owner_id, provider_account_id, scope, snapshot_id, payload, fetched_at)
       select '${LOCAL_OWNER_ID}', ('00000000-0000-4000-8000-00000000000' || a)::uuid, 'playlist:p' || p, 's' || p,
              jsonb_build_object('id', 'p' || p, 'name', 'Mix ' || p, 'kind', 'PLAYLIST', 'snapshot_id', 's' || p, 'tracks',
                (select jsonb_agg(jsonb_build_object('id', 't' || ${song}, 'title', 'Song ' || ${song}, 'artist', 'Artist', 'isrc',
                        case when ${song} % 2 = 0 then 'BENCH' || lpad((${song})::text, 7, '0') end, 'is_migratable', true, 'position', i) order by i)
                   from generate_series(0, ${TRACKS - 1}) i)), now()
       from generate_series(1, ${ACCOUNTS.length}) a cross join generate_series(0, ${PLAYLISTS - 1}) p`,
    `insert into track_identity (isrc, title, artist)
       select distinct 'BENCH' || lpad(n::text, 7, '0'), 'Song ' || n, 'Artist'
       from (select ((p * 37 + i) % 1000000) as n from generate_series(0, ${PLAYLISTS - 1}) p cross join generate_series(0, ${TRACKS - 1}) i) s where n % 2 = 0`,
  ];
}

/**
 * Each seeded playlist's track digest as a refresh writes it (`encodeTrackDigest`), written in SQL
 * so that seeding half a million tracks does not swell the process the build is measured in:
 * ids and ISRCs here need no escaping or normalizing. `checkDigests` holds the two to agreement.
 */
function digestStatement(): string {
  return `update playlist_cache set track_digest = '${TRACK_DIGEST_VERSION}' ||
            (select coalesce(string_agg(chr(10) || coalesce(t->>'id', '') || chr(9) || coalesce(t->>'isrc', '') || chr(9) || '${DIGEST_MIGRATABLE}', '' order by o), '')
               from jsonb_array_elements(payload->'tracks') with ordinality as x(t, o))
          where owner_id = '${LOCAL_OWNER_ID}' and starts_with(scope, 'playlist:')`;
}

/** A few seeded digests equal what `encodeTrackDigest` writes for the same cached tracks. */
async function checkDigests(execute: SqlExecute): Promise<void> {
  const rows = await execute({ text: `select payload->'tracks' as tracks, track_digest from playlist_cache where owner_id = ? and scope in ('playlist:p0', 'playlist:p7') order by provider_account_id, scope`, values: [LOCAL_OWNER_ID] });
  for (const row of rows) {
    if (row['track_digest'] !== encodeTrackDigest(row['tracks'] as Track[])) throw new Error('the seeded track digest differs from encodeTrackDigest');
  }
}

export async function run(): Promise<Record<string, unknown>> {
  const dataDir = await mkdtemp(join(tmpdir(), 'opl-bench-library-'));
  // A free port of its own: another engine (a test run, another bench) may hold the default one.
  const app = await createApp(loadConfig({ OPL_DATA_DIR: dataDir, OPL_LOG_LEVEL: 'silent', OPL_EMBEDDED_DB_PORT: String(await findFreePort()) }), { http: false, worker: false }, { logger: createLogger({ level: 'silent' }) });
  try {
    const { execute } = sqlExecutors(app.services.database.orm);
    for (const text of seedStatements()) await execute({ text, values: [] });
    await execute({ text: digestStatement(), values: [] });
    await checkDigests(execute);
    let providerCalls = 0;
    const counted = async (): Promise<never> => {
      providerCalls++;
      throw new Error('the workspace must not read a provider');
    };
    // Building the workspace matches nothing: the matcher's graph writes are refused too.
    const transaction = <T>(): Promise<T> => Promise.reject(new Error('the workspace must not match'));
    const workspace = new WorkspaceService({ execute, transaction, catalogue: { providerPlugin: () => undefined }, connections: app.services.connections, playlists: { list: counted, read: counted } });

    globalThis.gc?.();
    const rssBefore = process.memoryUsage().rss;
    let peak = rssBefore;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
    let groups = 0;
    let members = 0;
    const build = await measure(3, async () => {
      const view = await workspace.workspace(LOCAL_OWNER_ID);
      groups = view.groups.length;
      members = view.groups.reduce((total, group) => total + group.members.length, 0);
    });
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    const cacheRead = await measure(3, () => execute({ text: `select payload->'tracks' as tracks from playlist_cache where owner_id = ? and starts_with(scope, 'playlist:')`, values: [LOCAL_OWNER_ID] }));
    const peakMib = round(peak / 2 ** 20);
    return {
      accounts: ACCOUNTS.length,
      playlists_per_account: PLAYLISTS,
      tracks_per_playlist: TRACKS,
      members,
      groups,
      provider_calls: providerCalls,
      build_ms: build.median_ms,
      cache_read_ms: cacheRead.median_ms,
      ratio_to_cache_read: round(build.median_ms / Math.max(cacheRead.median_ms, 0.001)),
      rss_before_mib: round(rssBefore / 2 ** 20),
      peak_rss_mib: peakMib,
      goal: { build_ms: GOAL_MS, peak_rss_mib: GOAL_MIB, provider_calls: 0 },
      within_goal: build.median_ms < GOAL_MS && peakMib < GOAL_MIB && providerCalls === 0,
    };
  } finally {
    await app.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}
