import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PostgreSqlPlatform } from '@mikro-orm/postgresql';
import type { Sandbox } from '@opl/plugin-sdk/sandbox';
import { createApp, type App } from '../../core/app/index.ts';
import { loadConfig } from '../../core/config/index.ts';
import { createLogger } from '../../core/logging/logger.ts';
import { LinearQuotingPostgreSqlPlatform } from '../../core/storage/postgres-driver.ts';
import { firstPartyPlugins } from '../integration/support/first-party-plugins.ts';
import { measure, round } from './bench-stats.ts';
import { loadFormatPlugin } from './format-plugin-sandbox.ts';

/**
 * What a user waits for after uploading a large playlist file: `POST /api/imports/preview` of a
 * generated 100,000-track file on a real engine (embedded PostgreSQL, the signed first-party
 * format plugins in the plugin-host process), from the upload to the stored import record and the
 * answer. Baseline, in the same run: the same bytes parsed by the same plugin in a sandbox in this
 * process (as `format-parse` measures), so `ratio_vs_sandbox_parse` is the import path's own cost
 * on top of the parse (spooling the upload, the plugin-host process, checking the result, storing
 * the record). Beside it, `record_quoting`: the stored record's JSON written into SQL by MikroORM's
 * PostgreSQL platform and by the engine's (core/storage/postgres-driver.ts), which is what made a
 * 100,000-line TXT preview take 33 s before.
 *
 * `npm run bench -- import-preview`; OPL_BENCH_IMPORT_TRACKS changes the size.
 */

const TRACKS = Number(process.env['OPL_BENCH_IMPORT_TRACKS'] ?? 100_000);

const title = (index: number) => `Song number ${index}${index % 11 === 0 ? ' (Remastered 2011)' : ''} — ${index % 3 === 0 ? '東京の夜' : 'Ночь'}`;

/** An "Artist - Title" list, one song a line. */
function plainList(): string {
  return Array.from({ length: TRACKS }, (_, index) => `Artist ${index % 977} - ${title(index)}\n`).join('');
}

/** An Exportify export (Spotify's most common CSV): every field quoted, its column names. */
function exportifyCsv(): string {
  const quote = (value: string) => `"${value.replaceAll('"', '""')}"`;
  const header = ['Track URI', 'Track Name', 'Artist URI(s)', 'Artist Name(s)', 'Album URI', 'Album Name', 'Album Release Date', 'Disc Number', 'Track Number', 'Track Duration (ms)', 'Explicit', 'Popularity', 'ISRC', 'Added By', 'Added At'];
  const rows = Array.from({ length: TRACKS }, (_, index) => {
    const id = index.toString(36).padStart(22, '0');
    const artist = index % 977;
    return [`spotify:track:${id}`, title(index), `spotify:artist:${artist.toString(36).padStart(22, '0')}`, `Artist ${artist}`, `spotify:album:${(index % 503).toString(36).padStart(22, '0')}`, `Album ${index % 503}`, '2019-05-17', '1', String((index % 12) + 1), String(150_000 + (index % 180_000)), index % 7 === 0 ? 'true' : 'false', String(index % 100), `ZZOPL${String(index).padStart(7, '0')}`, 'spotify:user:bench', '2024-01-02T03:04:05Z'];
  });
  return [header, ...rows].map((row) => row.map(quote).join(',')).join('\n') + '\n';
}

const FILES = [
  { name: 'list.txt', plugin: 'txt', make: plainList },
  { name: 'exportify.csv', plugin: 'csv', make: exportifyCsv },
] as const;

async function startEngine(registryEnv: Record<string, string>): Promise<{ app: App; baseUrl: string; dataDir: string }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'opl-bench-import-'));
  // The embedded server runs as its own OS user when this runs as root: it must reach the directory.
  await chmod(dataDir, 0o755);
  const config = loadConfig({ OPL_DATA_DIR: dataDir, OPL_PORT: '0', OPL_LOG_LEVEL: 'silent', ...registryEnv });
  const app = await createApp(config, { http: true, worker: false }, { logger: createLogger({ level: 'silent' }) });
  const address = (await app.start()) ?? '';
  return { app, baseUrl: address.replace('0.0.0.0', '127.0.0.1'), dataDir };
}

async function preview(baseUrl: string, name: string, bytes: Uint8Array<ArrayBuffer>): Promise<{ track_count: number }> {
  const response = await fetch(`${baseUrl}/api/imports/preview?filename=${encodeURIComponent(name)}`, { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: bytes });
  const body = (await response.json()) as { track_count: number };
  if (response.status !== 201) throw new Error(`preview of ${name} answered ${response.status}: ${JSON.stringify(body).slice(0, 500)}`);
  return body;
}

export async function run(): Promise<object> {
  const plugins = await firstPartyPlugins();
  const buildRoot = await mkdtemp(join(tmpdir(), 'opl-bench-import-plugins-'));
  const engine = await startEngine(plugins.env);
  const sandboxes: Sandbox[] = [];
  try {
    const files: Record<string, unknown> = {};
    let recordJson = '';
    for (const file of FILES) {
      const bytes = new TextEncoder().encode(file.make());
      const sandbox = await loadFormatPlugin(file.plugin, buildRoot);
      sandboxes.push(sandbox);
      const parse = () => sandbox.call('parse', { bytes, filename: file.name }, {});
      const parsed = await parse();
      if (file.plugin === 'txt') recordJson = JSON.stringify(parsed.playlists);
      const parseTiming = await measure(3, parse);
      sandbox.dispose();
      const answered = await preview(engine.baseUrl, file.name, bytes);
      if (answered.track_count !== TRACKS) throw new Error(`the preview of ${file.name} read ${answered.track_count} tracks`);
      const previewTiming = await measure(3, () => preview(engine.baseUrl, file.name, bytes));
      files[file.name] = {
        file_bytes: bytes.byteLength,
        tracks: TRACKS,
        sandbox_parse: parseTiming,
        import_preview: previewTiming,
        ratio_vs_sandbox_parse: round(previewTiming.median_ms / parseTiming.median_ms, 2),
      };
    }
    // One run of MikroORM's own quoting is enough: it takes seconds.
    const sql = 'insert into import_record (playlists) values (?::jsonb)';
    const mikro = new PostgreSqlPlatform();
    const ours = new LinearQuotingPostgreSqlPlatform();
    const mikroTiming = await measure(1, async () => mikro.formatQuery(sql, [recordJson]).length, 0);
    const oursTiming = await measure(3, async () => ours.formatQuery(sql, [recordJson]).length);
    return {
      tracks: TRACKS,
      files,
      record_quoting: {
        json_chars: recordJson.length,
        mikro_orm_platform: mikroTiming,
        engine_platform: oursTiming,
        ratio_engine_vs_mikro_orm: round(oursTiming.median_ms / mikroTiming.median_ms, 4),
      },
    };
  } finally {
    for (const sandbox of sandboxes) if (!sandbox.isDisposed) sandbox.dispose();
    await engine.app.stop();
    await rm(engine.dataDir, { recursive: true, force: true });
    await rm(buildRoot, { recursive: true, force: true });
    await plugins.remove();
  }
}
