import { createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import type { Writable } from 'node:stream';
import { PluginError, type Playlist } from '@opl/plugin-sdk';
import { createLocalRegistrySource } from '@opl/plugin-sdk/tools';
import { ConvertProgress } from './convert/convert-progress.ts';
import { ENGINE_VERSION } from '../app/version.ts';
import type { Config } from '../config/index.ts';
import { exportFileNames } from '../domain/export-file-names.ts';
import { createLogger } from '../logging/logger.ts';
import { PluginHost } from '../plugin-host/index.ts';
import { readerFor, readableFormats, writableFormats } from '../plugins/format-plugins.ts';
import { PluginCatalogue } from '../plugins/plugin-catalogue.service.ts';
import { MemoryPluginState } from '../plugins/plugin-store.ts';
import { createHttpsRegistrySource } from '../plugins/registry/https-registry-source.ts';
import { heapProfileEnv, heapProfileFlags } from '../bootstrap/heap-profile.mjs';

export const CONVERT_USAGE = `Usage: opl convert <input-file> --to <format> [-o <output>] [--from <format>] [--progress]

Converts a playlist file offline through the engine's signed format plugins (no database, no
network). The input format comes from --from or the file name's extension.
  -o <file>     write one file (several playlists go into one file if the format allows it)
  -o <dir>/     write one file per playlist into the directory (names follow the export rules)
  (no -o)       write to standard output
  --progress    show progress on standard error (on by default on a terminal for large files)
`;

/** Input files larger than this are refused: the whole file crosses into the sandbox at once. */
const MAX_INPUT_BYTES = 512 * 1024 * 1024;
const MAX_LISTED_ISSUES = 20;
/** On a terminal, progress shows by itself from this many tracks or this many input bytes. */
const PROGRESS_TRACKS = 10_000;
const PROGRESS_BYTES = 8 * 1024 * 1024;

interface Io {
  stdout: Writable;
  stderr: { write(text: string): unknown; isTTY?: boolean };
}

class UsageError extends Error {}

function mib(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

async function isDirectoryTarget(path: string): Promise<boolean> {
  if (path.endsWith('/') || path.endsWith('\\')) return true;
  return (await stat(path).catch(() => null))?.isDirectory() ?? false;
}

/** Streams serialized chunks into a temporary file that replaces `path` only on success. */
async function writeAtomically(path: string, produce: (sink: (chunk: Uint8Array) => Promise<void>) => Promise<void>): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.partial`);
  const stream = createWriteStream(temporary, { mode: 0o644 });
  try {
    await produce(async (chunk) => {
      if (!stream.write(chunk)) await once(stream, 'drain');
    });
    stream.end();
    await once(stream, 'finish');
    await rename(temporary, path);
  } catch (error) {
    stream.destroy();
    await rm(temporary, { force: true });
    throw error;
  }
}

/** `opl convert`: file → playlists (a reader plugin) → file(s) (a writer plugin), in the sandbox. */
export async function convertCommand(args: readonly string[], config: Config, io: Io = { stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      allowPositionals: true,
      strict: true,
      options: { to: { type: 'string' }, from: { type: 'string' }, output: { type: 'string', short: 'o' }, progress: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    io.stderr.write(`opl convert: ${(error as Error).message}\n\n${CONVERT_USAGE}`);
    return 64;
  }
  if (parsed.values.help) {
    io.stderr.write(CONVERT_USAGE);
    return 0;
  }
  const input = parsed.positionals[0];
  if (!input || parsed.positionals.length > 1 || !parsed.values.to) {
    io.stderr.write(CONVERT_USAGE);
    return 64;
  }

  const logger = createLogger({ level: 'silent' });
  const host = new PluginHost({
    logger,
    limits: { memoryMb: config.plugins.memoryMb, callTimeoutMs: Math.max(config.plugins.callTimeoutMs, 120_000) },
    childNodeFlags: heapProfileFlags(config.heapProfile),
    childEnv: heapProfileEnv(config.heapProfile),
  });
  const registry =
    config.plugins.registry.source === 'https' ? createHttpsRegistrySource({ baseUrl: config.plugins.registry.location }) : createLocalRegistrySource(config.plugins.registry.location);
  const catalogue = new PluginCatalogue({
    registry,
    trustFile: config.plugins.trustFile,
    allowUnsigned: config.plugins.allowUnsigned,
    deploymentMode: 'self_host',
    engineVersion: ENGINE_VERSION,
    store: new MemoryPluginState(),
    runtime: host,
    logger,
  });
  try {
    const snapshot = await catalogue.refresh();
    if (snapshot.error) throw new UsageError(snapshot.error);
    const manifests = catalogue.manifests();
    const reader = readerFor(manifests, input, parsed.values.from);
    if (!reader) {
      const known = readableFormats(manifests).map((format) => `${format.name} (${format.extensions.join(', ')})`);
      throw new UsageError(
        `no format plugin reads ${parsed.values.from ? `the format "${parsed.values.from}"` : `"${basename(input)}"`}. Readable formats: ${known.join('; ') || 'none — run `opl plugin setup` or check `opl plugin list`'}.`,
      );
    }
    const writer = writableFormats(manifests).find((format) => format.name === parsed.values.to);
    if (!writer) {
      throw new UsageError(`no format plugin writes "${parsed.values.to}". Writable formats: ${writableFormats(manifests).map((format) => format.name).join(', ') || 'none'}.`);
    }

    const info = await stat(input).catch(() => null);
    if (!info?.isFile()) throw new UsageError(`${input} is not a readable file.`);
    if (info.size > MAX_INPUT_BYTES) throw new UsageError(`${input} is ${mib(info.size)}; the converter reads files up to ${mib(MAX_INPUT_BYTES)}.`);
    const bytes = new Uint8Array(await readFile(input));
    const tty = io.stderr.isTTY === true;
    const progress = new ConvertProgress(io.stderr, tty, `converting ${reader.name} → ${writer.name}`);
    // Large inputs announce the read: it is one call into the sandbox and can take a while.
    const largeInput = parsed.values.progress ?? (tty && info.size >= PROGRESS_BYTES);
    if (largeInput) progress.reading(basename(input), info.size, reader.name);

    const result = await host.call(reader.pluginId, 'parse', { bytes, filename: basename(input), media_type: null });
    for (const issue of result.issues.slice(0, MAX_LISTED_ISSUES)) {
      io.stderr.write(`${input}${issue.line ? `:${issue.line}` : ''}: ${issue.severity} ${issue.code}: ${issue.message}\n`);
    }
    if (result.issues.length > MAX_LISTED_ISSUES) io.stderr.write(`… and ${result.issues.length - MAX_LISTED_ISSUES} more issue(s)\n`);
    const playlists: Playlist[] = result.playlists;
    if (playlists.length === 0) throw new UsageError(`${input} holds no playlist that could be read (see the issues above).`);

    const tracks = playlists.reduce((sum, playlist) => sum + playlist.tracks.length, 0);
    const showProgress = parsed.values.progress ?? (tty && (largeInput || tracks >= PROGRESS_TRACKS));
    if (showProgress) progress.read(playlists.length, tracks, info.size);
    let written = 0;
    const serialize = async (items: Playlist[], sink: (chunk: Uint8Array) => Promise<void>) => {
      if (showProgress) progress.startPlaylist(items.reduce((sum, playlist) => sum + playlist.tracks.length, 0));
      await host.serialize(writer.pluginId, { playlists: items, options: {} }, async (chunk) => {
        written += chunk.byteLength;
        if (showProgress) progress.wrote(chunk.byteLength);
        await sink(chunk);
      });
      if (showProgress) progress.finishPlaylists(items.length);
    };

    const output = parsed.values.output;
    if (output && (await isDirectoryTarget(output))) {
      const extension = writer.extensions[0] ?? `.${writer.name}`;
      const names = exportFileNames(playlists, extension);
      for (const [index, playlist] of playlists.entries()) {
        await writeAtomically(join(output, names[index]!), (sink) => serialize([playlist], sink));
      }
      if (showProgress) progress.finish();
      io.stderr.write(`Wrote ${playlists.length} file(s) (${tracks} tracks) into ${output}\n`);
    } else if (output) {
      await writeAtomically(output, (sink) => serialize(playlists, sink));
      if (showProgress) progress.finish();
      io.stderr.write(`Wrote ${output}: ${playlists.length} playlist(s), ${tracks} track(s), ${written} bytes\n`);
    } else {
      await serialize(playlists, async (chunk) => {
        if (!io.stdout.write(chunk)) await once(io.stdout, 'drain');
      });
      if (showProgress) progress.finish();
    }
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`opl convert: ${error.message}\n`);
      return 1;
    }
    if (error instanceof PluginError) {
      io.stderr.write(`opl convert: ${error.type}: ${error.message}${/several playlists|multiple playlists|one playlist/i.test(error.message) ? ' — write one file per playlist with -o <directory>/' : ''}\n`);
      return 1;
    }
    throw error;
  } finally {
    await host.close();
    await catalogue.close();
  }
}
