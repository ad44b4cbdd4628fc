import { formatKit, type Playlist } from '@opl/plugin-sdk';
import { BUNDLE_SCHEMA_PATH, BUNDLE_SCHEMA_VERSION, DEFAULT_SCHEMA_BASE } from './bundle-constants.ts';

export interface BundleOptions {
  /** `$schema` is this base + `/export/open-playlist-bundle-v1.json`. */
  readonly schemaBase: string;
  readonly sourceProvider: string | null;
  /** Export warnings as the engine gives them; written in their own order. */
  readonly warnings: readonly Record<string, unknown>[];
  /**
   * One line with no spaces. The default is 2-space indentation down to the playlist fields, with
   * each track on a line of its own.
   */
  readonly compact: boolean;
  readonly maxChunkBytes: number;
}

const WARNING_KEYS = ['code', 'message', 'playlist_id', 'count'] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The warning's known fields in a fixed order; anything else about it is not part of bundle v1. */
function warningFields(warning: Record<string, unknown>): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const key of WARNING_KEYS) if (warning[key] !== undefined) fields[key] = warning[key];
  return fields;
}

/** Reads the options the engine may pass: `schema_base`, `source_provider`, `warnings`, `compact`. */
export function bundleOptions(options: Readonly<Record<string, unknown>>): BundleOptions {
  const base = typeof options.schema_base === 'string' && options.schema_base.trim() !== '' ? options.schema_base.trim() : DEFAULT_SCHEMA_BASE;
  const provider = options.source_provider;
  return {
    schemaBase: base.replace(/\/+$/, ''),
    sourceProvider: typeof provider === 'string' && provider !== '' ? provider : null,
    warnings: Array.isArray(options.warnings) ? options.warnings.filter(isRecord).map(warningFields) : [],
    compact: options.compact === true,
    maxChunkBytes: formatKit.MAX_CHUNK_BYTES,
  };
}

/** `JSON.stringify` at a nesting level: pretty values are re-indented (raw newlines only ever separate tokens). */
function jsonAt(value: unknown, indent: string, compact: boolean): string {
  const text = (compact ? JSON.stringify(value) : JSON.stringify(value, null, 2)) ?? 'null';
  return compact || indent === '' ? text : text.replaceAll('\n', `\n${indent}`);
}

/**
 * The bundle as small pieces, playlist by playlist and track by track, so a 100,000-track export
 * is never one string. Every field of every Playlist and Track is written as the model holds it,
 * in the model's order: JSON needs no escaping beyond its own, and values are never altered.
 */
export function* bundlePieces(playlists: Iterable<Playlist>, options: BundleOptions): Generator<string> {
  const { compact } = options;
  const nl = compact ? '' : '\n';
  const sp = compact ? '' : ' ';
  const level = (depth: number): string => (compact ? '' : '  '.repeat(depth));
  const field = (key: string, value: unknown, depth: number): string => `${level(depth)}${JSON.stringify(key)}:${sp}${jsonAt(value, level(depth), compact)}`;

  yield `{${nl}`;
  yield `${field('$schema', options.schemaBase + BUNDLE_SCHEMA_PATH, 1)},${nl}`;
  yield `${field('schema_version', BUNDLE_SCHEMA_VERSION, 1)},${nl}`;
  yield `${field('source_provider', options.sourceProvider, 1)},${nl}`;
  yield `${level(1)}"playlists":${sp}[`;
  let playlistCount = 0;
  for (const playlist of playlists) {
    yield `${playlistCount === 0 ? '' : ','}${nl}${level(2)}{${nl}`;
    playlistCount += 1;
    const keys = Object.keys(playlist).filter((key) => (playlist as Record<string, unknown>)[key] !== undefined);
    for (const [index, key] of keys.entries()) {
      const separator = index + 1 < keys.length ? ',' : '';
      if (key !== 'tracks') {
        yield `${field(key, (playlist as Record<string, unknown>)[key], 3)}${separator}${nl}`;
        continue;
      }
      yield `${level(3)}"tracks":${sp}[`;
      for (const [position, track] of playlist.tracks.entries()) {
        // One line per track, also when pretty: readable, a changed track is a one-line diff, and
        // a 100,000-track file stays close to the compact size.
        yield `${position === 0 ? '' : ','}${nl}${level(4)}${jsonAt(track, '', true)}`;
      }
      yield `${playlist.tracks.length === 0 ? '' : `${nl}${level(3)}`}]${separator}${nl}`;
    }
    yield `${level(2)}}`;
  }
  yield `${playlistCount === 0 ? '' : `${nl}${level(1)}`}],${nl}`;
  yield `${field('warnings', options.warnings, 1)}${nl}`;
  yield `}${nl}`;
}

/** The bundle as UTF-8 text chunks of at most `options.maxChunkBytes` bytes each. */
export function serializeBundle(playlists: Iterable<Playlist>, options: BundleOptions): Generator<string> {
  return formatKit.chunkUtf8(bundlePieces(playlists, options), options.maxChunkBytes);
}
