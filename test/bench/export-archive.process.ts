// One export of the ZIP64 memory benchmark, alone in its own process so that its peak resident
// memory (maxRSS) belongs to this export only; the format plugin runs in the plugin-host child, as
// in the engine, whose own peak (VmHWM) is reported beside it. argv: <plugin build dir> <format> <playlists>
// <tracks per playlist> [export | serialize-only | read-only]. `serialize-only` reads and serializes
// the same playlists one at a time into nothing (no export service, temporary files or archive);
// `read-only` only reads them: the baselines that tell the export path's own memory from the
// playlists' and the sandbox's. Playlists are read as the engine reads a cached playlist for an
// export: its details, then its tracks a slice at a time, each slice JSON text parsed (as the
// PostgreSQL driver hands over a jsonb value) — never the whole playlist at once.
// Prints one JSON line: peak RSS, the RSS before exporting, the output size, the time taken.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Manifest, Playlist, Track } from '@opl/plugin-sdk';
import { validateResultText } from '@opl/plugin-sdk/sandbox';
import { manifestSchema, playlistSchema, trackSchema } from '@opl/plugin-sdk/schemas';
import { PluginHost } from '../../core/plugin-host/index.ts';
import { ExportService } from '../../core/services/exports/index.ts';
import { EXPORT_SLICE_TRACKS } from '../../core/services/exports/export-source.ts';
import type { AccountView } from '../../core/services/connections/connection.service.ts';

const [buildDir, format, playlistArg, trackArg, mode = 'export'] = process.argv.slice(2);
const PLAYLISTS = Number(playlistArg);
const TRACKS = Number(trackArg);
const ACCOUNT = '00000000-0000-4000-8000-00000000bench';

/** One track as a provider plugin would return it: plain JSON, only the fields a provider fills. */
function track(list: number, index: number): Record<string, unknown> {
  const n = list * TRACKS + index;
  return {
    id: `trk${n}`,
    title: `Song number ${n}${n % 11 === 0 ? ' (Remastered 2011)' : ''} — ${n % 3 === 0 ? '東京の夜' : 'Ночь'}`,
    artist: `Artist ${n % 977}`,
    artists: [`Artist ${n % 977}`],
    album: `Album ${n % 503}`,
    duration_s: 150 + (n % 180),
    isrc: `ZZOPL${String(n).padStart(7, '0')}`,
    release_date: '2019-05-17',
    added_at: '2024-01-02T03:04:05Z',
    position: index,
    provider_uris: { spotify: `spotify:track:${n.toString(36).padStart(22, '0')}` },
  };
}

/**
 * A provider account whose playlists are made when read, one at a time, and handed over the way the
 * engine receives a provider plugin's `readPlaylist` result: JSON text from the plugin host, parsed
 * and checked once by `validateResultText` (not by zod per track, which would make the benchmark
 * measure its own stand-in's garbage rather than the export path).
 */
function playlistOf(list: number): Playlist {
  const text = JSON.stringify({ id: `pl${list}`, name: `Bench playlist ${list}`, tracks: Array.from({ length: TRACKS }, (_, index) => track(list, index)) });
  return validateResultText('bench.provider', 'readPlaylist', text);
}

/** A track as the cache holds it (validated when it was read: every field present), before this benchmark's values. */
const CACHED_TRACK = trackSchema.parse({ title: '', artist: '' });

/** What `PlaylistReadService.readInSlices` gives for a cached playlist: the details, then the tracks from the database a slice at a time. */
function slicesOf(list: number) {
  const playlist = JSON.parse(JSON.stringify({ ...playlistSchema.parse({ id: `pl${list}`, name: `Bench playlist ${list}`, track_count: TRACKS }), tracks: [] })) as Playlist;
  async function* slices(): AsyncGenerator<readonly Track[]> {
    for (let from = 0; from < TRACKS; from += EXPORT_SLICE_TRACKS) {
      const text = JSON.stringify(Array.from({ length: Math.min(EXPORT_SLICE_TRACKS, TRACKS - from) }, (_, index) => ({ ...CACHED_TRACK, ...track(list, from + index) })));
      // A turn of the event loop per slice, as a database round trip has.
      await new Promise((resolve) => setImmediate(resolve));
      yield JSON.parse(text) as Track[];
    }
  }
  return { playlist, trackCount: TRACKS, slices: slices() };
}

const manifest: Manifest = manifestSchema.parse(JSON.parse(await readFile(join(buildDir!, format!, 'manifest.json'), 'utf8')));
// As the engine runs format plugins: in the plugin-host child process, at the default sandbox size (OPL_PLUGIN_MEMORY_MB).
// The child gets this process's heap profile flags, as the engine passes its own to it.
const host = new PluginHost({ limits: { memoryMb: 256, callTimeoutMs: 600_000 }, childNodeFlags: process.execArgv.filter((flag) => flag === '--optimize-for-size') });
await host.load({ manifest, code: await readFile(join(buildDir!, format!, manifest.entry), 'utf8') });

/** The plugin-host child's peak resident memory so far (Linux: VmHWM), in KiB; null where /proc is missing. */
async function hostPeakKib(): Promise<number | null> {
  const pid = host.childPid;
  if (pid === null) return null;
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const match = /^VmHWM:\s+(\d+)\s+kB$/m.exec(status);
  return match ? Number(match[1]) : null;
}

const account = { id: ACCOUNT, provider: 'spotify', provider_display_name: 'Spotify', display_name: 'Bench', account_label: null } as unknown as AccountView;
const summaries = Array.from({ length: PLAYLISTS }, (_, list) => {
  const { tracks: _tracks, ...summary } = playlistSchema.parse({ id: `pl${list}`, name: `Bench playlist ${list}`, track_count: TRACKS });
  return summary;
});
const service = new ExportService({
  records: {
    get: () => Promise.reject(new Error('the benchmark exports from an account')),
  },
  accounts: {
    connections: { get: async () => account },
    playlists: {
      list: async () => ({ account_id: ACCOUNT, provider: 'spotify', cached: true, fetched_at: new Date(0).toISOString(), playlists: summaries }),
      read: async (_owner, _account, id) => ({ account_id: ACCOUNT, provider: 'spotify', cached: true, fetched_at: new Date(0).toISOString(), playlist: playlistOf(Number(id.slice(2))) }),
      readInSlices: async (_owner, _account, id) => slicesOf(Number(id.slice(2))),
    },
  },
  plugins: { manifests: () => [manifest], serializePlaylist: (pluginId, input, nextSlice, onChunk) => host.serializePlaylist(pluginId, input, nextSlice, onChunk) },
  maxPlaylists: PLAYLISTS,
  schemaBaseUrl: 'https://bench.example/schemas',
});

globalThis.gc?.();
const rssBeforeKib = Math.round(process.memoryUsage.rss() / 1024);
const hostBeforeKib = await hostPeakKib();
const started = performance.now();
let bytes = 0;
let contentType = 'none';
if (mode === 'read-only') {
  for (let list = 0; list < PLAYLISTS; list += 1) {
    for await (const slice of slicesOf(list).slices) bytes += slice.length;
  }
} else if (mode === 'serialize-only') {
  for (let list = 0; list < PLAYLISTS; list += 1) {
    const { playlist, slices } = slicesOf(list);
    const tracks = slices[Symbol.asyncIterator]();
    const nextSlice = async () => {
      const next = await tracks.next();
      return next.done ? { done: true as const, late: {} } : { done: false as const, tracks: next.value };
    };
    await host.serializePlaylist(manifest.id, { playlist, options: {} }, nextSlice, (chunk) => {
      bytes += chunk.byteLength;
    });
  }
} else {
  const artifact = await service.export('local', { source_provider: 'spotify', source_account_id: ACCOUNT, format: format! });
  // The client side of the download: read the archive in 64 KiB chunks and drop them.
  await pipeline(artifact.open(), new Writable({ write: (_chunk, _encoding, done) => done() }));
  bytes = artifact.bytes;
  contentType = artifact.contentType;
  await artifact.dispose();
}
await service.close();
const elapsedMs = performance.now() - started;
const hostKib = await hostPeakKib();
await host.close();
process.stdout.write(
  `${JSON.stringify({ max_rss_kib: process.resourceUsage().maxRSS, host_max_rss_kib: hostKib, rss_before_kib: rssBeforeKib, host_rss_before_kib: hostBeforeKib, output_bytes: bytes, content_type: contentType, elapsed_ms: Math.round(elapsedMs) })}\n`,
);
