import { readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import type { Writable } from 'node:stream';
import { PluginError, type Playlist } from '@opl/plugin-sdk';
import { SandboxError } from '@opl/plugin-sdk/sandbox';
import { createLocalRegistrySource } from '@opl/plugin-sdk/tools';
import { ConvertProgress } from './convert/convert-progress.ts';
import { OutputBatch, OutputError } from './convert/output-batch.ts';
import { fileIdentity, isSameFile, type FileIdentity } from './convert/same-file.ts';
import { ENGINE_VERSION } from '../app/version.ts';
import type { Config } from '../config/index.ts';
import { exportFileNames } from '../domain/export-file-names.ts';
import { createLogger } from '../logging/logger.ts';
import { PluginHost } from '../plugin-host/index.ts';
import { readerFor, readableFormats, writableFormats } from '../plugins/format-plugins.ts';
import { SNIFF_BYTES } from '../services/imports/format-sniffer.ts';
import { chooseReader } from '../services/imports/reader-choice.ts';
import { PluginCatalogue } from '../plugins/plugin-catalogue.service.ts';
import { MemoryPluginState } from '../plugins/plugin-store.ts';
import { createHttpsRegistrySource } from '../plugins/registry/https-registry-source.ts';
import { heapProfileEnv, heapProfileFlags } from '../bootstrap/heap-profile.mjs';
import { terminalText } from './terminal-text.ts';

export const CONVERT_USAGE = `Usage: opl convert <input-file> --to <format> [-o <output>] [--from <format>] [--force] [--progress]

Converts a playlist file offline through the engine's signed format plugins (no database, no
network). The input format comes from --from or the file name's extension.
  -o <file>     write one file (several playlists go into one file if the format allows it)
  -o <dir>/     write one file per playlist into the directory (names follow the export rules;
                all files or none)
  -o -          write to standard output, as without -o (a file named "-" is -o ./-)
  --force       replace existing output files (otherwise an existing file is never overwritten;
                the input file is never overwritten)
  --progress    show progress on standard error (on by default on a terminal for large files,
                unless the output itself goes to that terminal)

Exit codes: 0 converted, 1 refused or failed (no output file is left behind), 64 usage error,
130 interrupted.
`;

/** Input files larger than this are refused: the whole file crosses into the sandbox at once. */
const MAX_INPUT_BYTES = 512 * 1024 * 1024;
const MAX_LISTED_ISSUES = 20;
/** On a terminal, progress shows by itself from this many tracks or this many input bytes. */
const PROGRESS_TRACKS = 10_000;
const PROGRESS_BYTES = 8 * 1024 * 1024;

interface Io {
  stdout: Writable & { isTTY?: boolean };
  stderr: { write(text: string): unknown; isTTY?: boolean };
}

class UsageError extends Error {}

/**
 * The sandbox memory of an offline conversion: at least 1 GiB. The engine's default (256 MiB per
 * isolate, many isolates in one process) is sized for uploads of at most OPL_IMPORT_MAX_BYTES;
 * a file converted here may be larger (a 100,000-track bundle is over 60 MB), and it is the only
 * work on the machine. A larger OPL_PLUGIN_MEMORY_MB is kept.
 */
export function convertMemoryMb(configuredMb: number): number {
  return Math.max(configuredMb, 1024);
}

/** What to do about a plugin's failure, when there is something to do. */
function pluginErrorHint(error: PluginError, configuredMb: number): string {
  if (error instanceof SandboxError && error.failure === 'memory') {
    return ` — the file needs more memory than the sandbox's ${convertMemoryMb(configuredMb)} MiB: run again with OPL_PLUGIN_MEMORY_MB=${2 * convertMemoryMb(configuredMb)}`;
  }
  return /several playlists|multiple playlists|one playlist/i.test(error.message) ? ' — write one file per playlist with -o <directory>/' : '';
}

function mib(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

async function isDirectoryTarget(path: string): Promise<boolean> {
  if (path.endsWith('/') || path.endsWith('\\')) return true;
  return (await stat(path).catch(() => null))?.isDirectory() ?? false;
}

/** What the file system said, in words (`EACCES` → "permission denied"). */
function fsReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const words: Record<string, string> = {
    EACCES: 'permission denied',
    EPERM: 'operation not permitted',
    ENOENT: 'no such file or directory',
    ENOTDIR: 'a part of the path is a file, not a directory',
    EISDIR: 'it is a directory',
    ENOSPC: 'no space left on the device',
    EROFS: 'the file system is read-only',
    EDQUOT: 'the disk quota is exhausted',
    ENAMETOOLONG: 'the name is too long',
    EPIPE: 'the reader went away',
  };
  return (code && words[code]) ?? (error instanceof Error ? error.message : String(error));
}

function isFsError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' && /^E[A-Z]+$/.test(code);
}

/** An output file that could not be written, in the words `opl convert` says it with. */
function outputProblem(error: OutputError, input: string): UsageError {
  switch (error.problem) {
    case 'directory': {
      const code = (error.cause as NodeJS.ErrnoException).code;
      const reason = code === 'EEXIST' || code === 'ENOTDIR' ? 'a file of that name is in the way' : fsReason(error.cause);
      return new UsageError(`cannot create the output directory ${error.path}: ${reason}.`);
    }
    case 'exists':
      return new UsageError(`${error.path} already exists; choose another -o or add --force to replace it.`);
    case 'input':
      return new UsageError(`${error.path} is the input file ${input}; the input is never overwritten: choose another -o.`);
    case 'write':
      return new UsageError(`cannot write ${error.path}: ${fsReason(error.cause)}.`);
  }
}

/** Refuses before any work when an output file is already there (unless --force). */
async function refuseExisting(paths: readonly string[], force: boolean): Promise<void> {
  if (force) return;
  for (const path of paths) {
    if (await stat(path).catch(() => null)) throw new UsageError(`${path} already exists; choose another -o or add --force to replace it.`);
  }
}

/** Refuses before any work when an output path names the input file itself, even with --force. */
function refuseInput(paths: readonly string[], input: FileIdentity): void {
  for (const path of paths) {
    if (isSameFile(input, path)) throw new OutputError(path, 'input');
  }
}

/** The input file, or a UsageError that says why it cannot be read. */
async function readInput(input: string): Promise<{ bytes: Uint8Array<ArrayBuffer>; size: number; identity: FileIdentity }> {
  const info = await stat(input, { bigint: true }).catch((error: unknown) => {
    if (!isFsError(error)) throw error;
    throw new UsageError((error as NodeJS.ErrnoException).code === 'ENOENT' ? `${input} does not exist.` : `cannot read ${input}: ${fsReason(error)}.`);
  });
  if (info.isDirectory()) throw new UsageError(`${input} is a directory, not a playlist file.`);
  // A pipe or device has no size to check before it is read whole (`<(…)`, /dev/stdin): ask for the file itself.
  if (!info.isFile()) throw new UsageError(`${input} is not a regular file (a pipe or a device); save the playlist to a file and convert that.`);
  const size = Number(info.size);
  if (size > MAX_INPUT_BYTES) throw new UsageError(`${input} is ${mib(size)}; the converter reads files up to ${mib(MAX_INPUT_BYTES)}.`);
  try {
    return { bytes: new Uint8Array(await readFile(input)), size, identity: fileIdentity(input, info) };
  } catch (error) {
    if (!isFsError(error)) throw error;
    throw new UsageError(`cannot read ${input}: ${fsReason(error)}.`);
  }
}

const MISSING_INPUT = 'name the playlist file to convert.';

/** What is missing or one too many on the command line, in words (null: nothing); the usage alone does not say. */
function usageProblem(positionals: readonly string[], to: string | undefined): string | null {
  if (positionals.length === 0) return MISSING_INPUT;
  if (positionals.length > 1) return `one input file at a time; "${positionals[1]}" is a second one.`;
  if (!to) return 'name the output format with --to <format>.';
  return null;
}

/** `opl convert`: file → playlists (a reader plugin) → file(s) (a writer plugin), in the sandbox. */
export async function convertCommand(args: readonly string[], config: Config, io: Io = { stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      allowPositionals: true,
      strict: true,
      options: {
        to: { type: 'string' },
        from: { type: 'string' },
        output: { type: 'string', short: 'o' },
        force: { type: 'boolean' },
        progress: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    io.stderr.write(`opl convert: ${(error as Error).message}\n\n${CONVERT_USAGE}`);
    return 64;
  }
  if (parsed.values.help) {
    // Asked for: the text is the output (`opl convert --help | less`), as for the other commands.
    io.stdout.write(CONVERT_USAGE);
    return 0;
  }
  const input = parsed.positionals[0];
  const problem = usageProblem(parsed.positionals, parsed.values.to);
  if (problem !== null || input === undefined) {
    io.stderr.write(`opl convert: ${terminalText(problem ?? MISSING_INPUT)}\n\n${CONVERT_USAGE}`);
    return 64;
  }

  const force = parsed.values.force ?? false;
  // The input is checked before the plugins load: a missing or unreadable file fails at once.
  let source: Awaited<ReturnType<typeof readInput>>;
  try {
    source = await readInput(input);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`opl convert: ${error.message}\n`);
    return 1;
  }

  const logger = createLogger({ level: 'silent' });
  const host = new PluginHost({
    logger,
    // One user's own file on their own machine: more room and time than the engine gives each sandbox.
    limits: { memoryMb: convertMemoryMb(config.plugins.memoryMb), callTimeoutMs: Math.max(config.plugins.callTimeoutMs, 120_000) },
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
  let stdoutError: Error | null = null;
  let batch: OutputBatch | null = null;
  // Outside the try: a failure after the bar is drawn ends the bar's line before it is reported.
  let bar: ConvertProgress | null = null;
  try {
    const snapshot = await catalogue.refresh();
    if (snapshot.error) throw new UsageError(snapshot.error);
    const manifests = catalogue.manifests();
    // As an upload's: what the content declares (XSPF saved as .xml, JSPF as .json), then the name; no guess (--from says it).
    // Format names are lowercase (`csv`); `--to CSV` means the same.
    const from = parsed.values.from?.trim().toLowerCase();
    const to = parsed.values.to?.trim().toLowerCase();
    const reader = from ? readerFor(manifests, '', from) : chooseReader(manifests, { fileName: basename(input), mediaType: null, head: source.bytes.subarray(0, SNIFF_BYTES) }, { guess: false }).reader;
    if (!reader) {
      const known = readableFormats(manifests).map((format) => `${format.name} (${format.extensions.join(', ')})`);
      // An extension no plugin claims (`.dat`, none at all) may still name a readable file: say how to name its format.
      const hint = known.length > 0 && !parsed.values.from ? '; if the file is one of these, name its format with --from <format>' : '';
      throw new UsageError(
        `no format plugin reads ${parsed.values.from ? `the format "${parsed.values.from}"` : `"${basename(input)}"`}. Readable formats: ${known.join('; ') || 'none — run `opl plugin setup` or check `opl plugin list`'}${hint}.`,
      );
    }
    const writer = writableFormats(manifests).find((format) => format.name === to);
    if (!writer) {
      throw new UsageError(`no format plugin writes "${parsed.values.to}". Writable formats: ${writableFormats(manifests).map((format) => format.name).join(', ') || 'none'}.`);
    }

    const info = { size: source.size };
    const bytes = source.bytes;
    // "-" is standard output, as for most command-line tools; a file of that name is `-o ./-`.
    const output = parsed.values.output === '' || parsed.values.output === '-' ? undefined : parsed.values.output;
    const intoDirectory = output !== undefined && (await isDirectoryTarget(output));
    if (output !== undefined && !intoDirectory) {
      refuseInput([output], source.identity);
      await refuseExisting([output], force);
    }
    const tty = io.stderr.isTTY === true;
    const progress = new ConvertProgress(io.stderr, tty, `converting ${reader.name} → ${writer.name}`);
    bar = progress;
    // Not by itself while the converted file scrolls on the same terminal: the bar would be spliced into its lines.
    const autoProgress = tty && !(output === undefined && io.stdout.isTTY === true);
    // Large inputs announce the read: it is one call into the sandbox and can take a while.
    const largeInput = parsed.values.progress ?? (autoProgress && info.size >= PROGRESS_BYTES);
    if (largeInput) progress.reading(basename(input), info.size, reader.name);

    const result = await host.call(reader.pluginId, 'parse', { bytes, filename: basename(input), media_type: null });
    // Issue text comes from the file: escaped before it reaches the terminal.
    for (const issue of result.issues.slice(0, MAX_LISTED_ISSUES)) {
      io.stderr.write(`${input}${issue.line ? `:${issue.line}` : ''}: ${issue.severity} ${terminalText(issue.code)}: ${terminalText(issue.message)}\n`);
    }
    if (result.issues.length > MAX_LISTED_ISSUES) io.stderr.write(`… and ${result.issues.length - MAX_LISTED_ISSUES} more issue(s)\n`);
    const playlists: Playlist[] = result.playlists;
    if (playlists.length === 0) throw new UsageError(`${input} holds no playlist${result.issues.length > 0 ? ' that could be read (see the issues above)' : 's'}: there is nothing to convert.`);

    const tracks = playlists.reduce((sum, playlist) => sum + playlist.tracks.length, 0);
    const showProgress = parsed.values.progress ?? (autoProgress && (largeInput || tracks >= PROGRESS_TRACKS));
    if (showProgress) progress.read(playlists.length, tracks, info.size);
    let written = 0;
    const serialize = async (items: Playlist[], sink: (chunk: Uint8Array) => Promise<void>) => {
      if (showProgress) progress.startPlaylist(items.reduce((sum, playlist) => sum + playlist.tracks.length, 0));
      // A configured public schema base is named in the file; else the plugin writes the canonical one (never this machine's own address).
      // The source provider a bundle named is written back (a bundle converted to a bundle keeps it).
      const options = {
        ...(config.publishedSchemaBaseUrl ? { schema_base: config.publishedSchemaBaseUrl } : {}),
        ...(result.source_provider === undefined ? {} : { source_provider: result.source_provider }),
      };
      await host.serialize(writer.pluginId, { playlists: items, options }, async (chunk) => {
        written += chunk.byteLength;
        if (showProgress) progress.wrote(chunk.byteLength);
        await sink(chunk);
      });
      if (showProgress) progress.finishPlaylists(items.length);
    };

    if (output !== undefined) {
      // Every file is written before any takes its name: a failure or Ctrl-C leaves no output behind.
      const extension = writer.extensions[0] ?? `.${writer.name}`;
      const files: Array<[path: string, items: Playlist[]]> = intoDirectory ? exportFileNames(playlists, extension).map((name, index) => [join(output, name), [playlists[index]!]]) : [[output, playlists]];
      const paths = files.map(([path]) => path);
      if (intoDirectory) {
        refuseInput(paths, source.identity);
        await refuseExisting(paths, force);
      }
      batch = new OutputBatch({
        force,
        input: source.identity,
        onInterrupt: () => {
          io.stderr.write(`\nopl convert: interrupted; ${terminalText(intoDirectory ? `nothing was written into ${output}` : `${output} was not written`)}.\n`);
          process.exit(130);
        },
      });
      for (const [path, items] of files) await batch.stage(path, (sink) => serialize(items, sink));
      batch.publish();
      if (showProgress) progress.finish();
      io.stderr.write(intoDirectory ? `Wrote ${playlists.length} file(s) (${tracks} tracks) into ${output}\n` : `Wrote ${output}: ${playlists.length} playlist(s), ${tracks} track(s), ${written} bytes\n`);
    } else {
      // A reader that goes away (`| head`) is an EPIPE on standard output, not a plugin failure.
      const onStdoutError = (error: Error) => {
        stdoutError = error;
      };
      io.stdout.on('error', onStdoutError);
      try {
        await serialize(playlists, async (chunk) => {
          if (stdoutError) throw stdoutError;
          if (!io.stdout.write(chunk)) await once(io.stdout, 'drain');
        });
      } finally {
        io.stdout.off('error', onStdoutError);
      }
      if (showProgress) progress.finish();
    }
    return 0;
  } catch (thrown) {
    batch?.discard();
    bar?.interrupt();
    const error = thrown instanceof OutputError ? outputProblem(thrown, input) : thrown;
    if (stdoutError) {
      io.stderr.write(`opl convert: could not write to standard output: ${fsReason(stdoutError)}; the output is incomplete.\n`);
      return 1;
    }
    if (error instanceof UsageError) {
      io.stderr.write(`opl convert: ${terminalText(error.message)}\n`);
      return 1;
    }
    if (error instanceof PluginError) {
      io.stderr.write(`opl convert: ${error.type}: ${terminalText(error.message)}${pluginErrorHint(error, config.plugins.memoryMb)}\n`);
      return 1;
    }
    throw error;
  } finally {
    batch?.close();
    await host.close();
    await catalogue.close();
  }
}
