import { createWriteStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { exportManifestSchema, type ExportManifest } from '@opl/plugin-sdk/schemas';
import type { Config } from '../config/index.ts';
import { plural, problemDetail, problemOf, readCommandLine, withEngine, EngineRequestError, type CommandIo, type EngineClient } from './engine-command/index.ts';
import { dispositionFileName, downloadNameProblem, extensionOf, insideDirectory, safeDownloadName } from './export/download-file-name.ts';
import { EXPORT_USAGE, ExportUsageError, parseExportOptions, type ExportOptions } from './export/export-options.ts';
import { warningCodes, warningInWords } from './export/warning-words.ts';
import { readZipEntry, ZipReadError } from './export/zip-manifest-reader.ts';
import { publishPartialFile, TargetExistsError } from './publish-partial-file.ts';
import { terminalText } from './terminal-text.ts';

/**
 * `opl export`: downloads playlists from a running engine as a file, through the same export
 * endpoints the web UI uses — live from a connected account or an import record, or from a
 * finished migration's history. The body streams straight to disk (never held in memory) into a
 * temporary file that takes its final name only when complete; warnings are printed in words.
 */

export const EXPORT_EXIT = { ok: 0, failed: 1, usage: 64, interrupted: 130 } as const;

type Io = CommandIo;

function sizeOf(bytes: number): string {
  if (bytes < 1024) return plural(bytes, 'byte');
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

async function isDirectory(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null))?.isDirectory() ?? false;
}

/** Why `path` cannot take the download as a directory; null when it can. */
async function outputDirectoryProblem(path: string): Promise<string | null> {
  try {
    if ((await stat(path)).isDirectory()) return null;
    return `The output directory ${path} is a file, not a directory.`;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR') return `The output directory ${path} cannot exist: a part of its path is a file, not a directory.`;
    if (code === 'EACCES' || code === 'EPERM') return `The output directory ${path} cannot be reached (permission denied).`;
    return `The output directory ${path} does not exist.`;
  }
}

async function exists(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null)) !== null;
}

/** The request body and path of the export the options ask for. */
async function exportRequest(client: EngineClient, options: ExportOptions): Promise<{ path: string; body: Record<string, unknown> }> {
  if (options.mode === 'migration') return { path: `/api/exports/migrations/${options.jobId}`, body: { format: options.format } };
  const { source } = options;
  let sourceProvider: string;
  let sourceAccountId: string;
  if (source.kind === 'import') {
    sourceProvider = 'import';
    sourceAccountId = source.importId;
  } else {
    sourceAccountId = source.accountId;
    if (source.provider) {
      sourceProvider = source.provider;
    } else {
      const { json } = await client.request('GET', '/api/auth/accounts');
      const account = (json as { accounts: { id: string; provider: string }[] }).accounts.find((candidate) => candidate.id === source.accountId);
      if (!account) throw new EngineRequestError(404, `No connected account ${source.accountId} on this engine (see the Connections page, or \`--source import:<id>\` for an import).`);
      sourceProvider = account.provider;
    }
  }
  const selection = options.playlistIds.length > 0 || Object.keys(options.tracks).length > 0 ? { selection: { playlist_ids: options.playlistIds, tracks: options.tracks } } : {};
  return { path: '/api/exports', body: { source_provider: sourceProvider, source_account_id: sourceAccountId, format: options.format, ...selection } };
}

/** Where the download goes: `-o` as a file, or a directory (default: the current one) plus the engine's sanitized file name. */
async function destination(options: ExportOptions, response: Response): Promise<string> {
  const fallback = `opl-export${extensionOf(response.headers.get('content-type'))}`;
  const out = options.out;
  if (out !== null && !out.endsWith('/') && !out.endsWith('\\') && !(await isDirectory(out))) {
    const problem = downloadNameProblem(resolve(out), response.headers.get('content-type'), options.format);
    if (problem) throw new EngineRequestError(0, problem);
    return resolve(out);
  }
  const directory = resolve(out ?? '.');
  const problem = await outputDirectoryProblem(directory);
  if (problem) throw new EngineRequestError(0, problem);
  return insideDirectory(directory, safeDownloadName(dispositionFileName(response.headers.get('content-disposition')), fallback));
}

/** Streams the body into `<dir>/.<name>.<pid>.partial`, then gives it its name (never replacing a file unless --force). */
async function save(response: Response, target: string, force: boolean, signal: AbortSignal): Promise<number> {
  const problem = await outputDirectoryProblem(dirname(target));
  if (problem) throw new EngineRequestError(0, problem);
  if (!force && (await exists(target))) throw new EngineRequestError(0, `${target} already exists; choose another -o or add --force to replace it.`);
  const partial = join(dirname(target), `.${basename(target)}.${process.pid}.partial`);
  try {
    await pipeline(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), createWriteStream(partial, { flags: 'wx', mode: 0o644 }), { signal });
    const expected = Number(response.headers.get('content-length'));
    const written = (await stat(partial)).size;
    if (Number.isFinite(expected) && expected > 0 && written !== expected) throw new EngineRequestError(0, `The download ended early (${written} of ${expected} bytes); nothing was written.`);
    try {
      publishPartialFile(partial, target, force);
    } catch (error) {
      if (error instanceof TargetExistsError) throw new EngineRequestError(0, `${target} appeared while downloading; choose another -o or add --force to replace it.`);
      throw error;
    }
    return written;
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}

async function reportWarnings(io: Io, target: string, response: Response): Promise<void> {
  const count = Number(response.headers.get('x-open-playlist-warning-count') ?? '0');
  const isZip = response.headers.get('content-type')?.startsWith('application/zip') ?? false;
  let manifest: ExportManifest | null = null;
  if (isZip) {
    try {
      const bytes = await readZipEntry(target, 'manifest.json');
      if (bytes) {
        // The engine's own manifest v1: anything else is reported, and the warnings come from the headers.
        const parsed = exportManifestSchema.safeParse(JSON.parse(bytes.toString('utf8')));
        if (parsed.success) manifest = parsed.data;
        else io.stderr.write(`(the archive's manifest.json is not an export manifest v1: ${parsed.error.issues[0]?.path.join('.') || 'document'}: ${parsed.error.issues[0]?.message})\n`);
      }
    } catch (error) {
      if (!(error instanceof ZipReadError) && !(error instanceof SyntaxError)) throw error;
      io.stderr.write(`(the archive's manifest.json could not be read: ${error.message})\n`);
    }
  }
  if (manifest) {
    const failed = manifest.entries.filter((entry) => entry.status === 'error');
    const tracks = manifest.entries.reduce((sum, entry) => sum + entry.track_count, 0);
    io.stderr.write(`${plural(manifest.playlist_count, 'playlist')}, ${plural(tracks, 'track')}${failed.length > 0 ? `; ${failed.length} could not be read: ${failed.map((entry) => `"${terminalText(entry.playlist_name || entry.playlist_id)}"`).join(', ')}` : ''}.\n`);
  }
  if (count === 0) {
    io.stderr.write('No warnings.\n');
    return;
  }
  io.stderr.write(`${plural(count, 'warning')}:\n`);
  if (!manifest) {
    const codes = warningCodes(response.headers.get('x-open-playlist-warning-codes'));
    for (const code of codes) io.stderr.write(`  ! ${warningInWords(code)} [${terminalText(code)}]\n`);
    if (codes.length === 0) io.stderr.write('  (the engine did not name them)\n');
  } else {
    const names = new Map(manifest.entries.map((entry) => [entry.playlist_id, entry.playlist_name]));
    for (const warning of manifest.warnings) {
      const about = warning.playlist_id ? names.get(warning.playlist_id) : undefined;
      // Playlist names and messages come from the source's files or provider: escaped for the terminal.
      io.stderr.write(`  ! ${about ? `"${terminalText(about)}": ` : ''}${terminalText(warning.message)} [${terminalText(warning.code)}]\n`);
    }
  }
}

async function download(client: EngineClient, options: ExportOptions, io: Io, signal: AbortSignal): Promise<number> {
  const { path, body } = await exportRequest(client, options);
  const response = await client.raw(path, { method: 'POST', body, headers: { accept: '*/*' }, signal });
  if (!response.ok) {
    const problem = await problemOf(response);
    const detail = problemDetail(problem, response.status);
    io.stderr.write(`opl export: ${terminalText(detail)}${typeof problem['code'] === 'string' ? ` (${terminalText(problem['code'])})` : ''}\n`);
    return EXPORT_EXIT.failed;
  }
  let target: string;
  try {
    target = await destination(options, response);
  } catch (error) {
    await response.body?.cancel();
    throw error;
  }
  const written = await save(response, target, options.force, signal);
  io.stdout.write(`${target}\n`);
  io.stderr.write(`Wrote ${target} (${sizeOf(written)}).\n`);
  await reportWarnings(io, target, response);
  return EXPORT_EXIT.ok;
}

export async function exportCommand(args: readonly string[], config: Config, io: Io = { stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  const line = readCommandLine({ name: 'export', usage: EXPORT_USAGE, parse: parseExportOptions, usageError: ExportUsageError, exit: EXPORT_EXIT }, args, io);
  if ('exit' in line) return line.exit;
  const { options } = line;
  // Ctrl-C stops the download and removes the partial file. `on`, not `once`: a terminal's Ctrl-C
  // also arrives forwarded by the `opl` launcher, and a copy finding no listener would kill the
  // process before the partial file is removed.
  const interrupt = new AbortController();
  const onInterrupt = () => interrupt.abort(new Error('interrupted'));
  process.on('SIGINT', onInterrupt);
  try {
    return await withEngine(config, options.url, io, (client) => download(client, options, io, interrupt.signal));
  } catch (error) {
    if (interrupt.signal.aborted) {
      io.stderr.write('\nopl export: interrupted; nothing was written.\n');
      return EXPORT_EXIT.interrupted;
    }
    if (error instanceof EngineRequestError) {
      io.stderr.write(`opl export: ${error.message}\n`);
      return EXPORT_EXIT.failed;
    }
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) {
      io.stderr.write(`opl export: could not write the file: ${(error as Error).message}\n`);
      return EXPORT_EXIT.failed;
    }
    throw error;
  } finally {
    process.off('SIGINT', onInterrupt);
  }
}
