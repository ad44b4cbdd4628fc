import { formatKit, type Playlist, type PlaylistWriter } from '@opl/plugin-sdk';
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

/** The bundle's whitespace: none when compact, else 2-space indentation. */
class Layout {
  readonly compact: boolean;
  readonly nl: string;
  readonly sp: string;

  constructor(compact: boolean) {
    this.compact = compact;
    this.nl = compact ? '' : '\n';
    this.sp = compact ? '' : ' ';
  }

  level(depth: number): string {
    return this.compact ? '' : '  '.repeat(depth);
  }

  field(key: string, value: unknown, depth: number): string {
    return `${this.level(depth)}${JSON.stringify(key)}:${this.sp}${jsonAt(value, this.level(depth), this.compact)}`;
  }
}

/** The envelope up to the opening of `playlists`. */
function* bundleHead(options: BundleOptions, layout: Layout): Generator<string> {
  const { nl, sp } = layout;
  yield `{${nl}`;
  yield `${layout.field('$schema', options.schemaBase + BUNDLE_SCHEMA_PATH, 1)},${nl}`;
  yield `${layout.field('schema_version', BUNDLE_SCHEMA_VERSION, 1)},${nl}`;
  yield `${layout.field('source_provider', options.sourceProvider, 1)},${nl}`;
  yield `${layout.level(1)}"playlists":${sp}[`;
}

/** The envelope after the last playlist: the warnings come last because some are only known then. */
function* bundleTail(options: BundleOptions, layout: Layout, playlistCount: number): Generator<string> {
  const { nl } = layout;
  yield `${playlistCount === 0 ? '' : `${nl}${layout.level(1)}`}],${nl}`;
  yield `${layout.field('warnings', options.warnings, 1)}${nl}`;
  yield `}${nl}`;
}

/**
 * One playlist object of the bundle: its fields in the model's order, `tracks` written as they are
 * given, in as many slices as the caller likes (the count written is all it keeps of them).
 */
class PlaylistObject {
  readonly #playlist: Record<string, unknown>;
  readonly #layout: Layout;
  readonly #first: boolean;
  readonly #keys: string[];
  readonly #tracksAt: number;
  #written = 0;

  constructor(playlist: Playlist, layout: Layout, first: boolean) {
    this.#playlist = playlist;
    this.#layout = layout;
    this.#first = first;
    this.#keys = Object.keys(playlist).filter((key) => this.#playlist[key] !== undefined);
    const at = this.#keys.indexOf('tracks');
    this.#tracksAt = at === -1 ? this.#keys.length : at;
  }

  *#fields(from: number, to: number): Generator<string> {
    for (let index = from; index < to; index++) {
      const key = this.#keys[index]!;
      yield `${this.#layout.field(key, this.#playlist[key], 3)}${index + 1 < this.#keys.length ? ',' : ''}${this.#layout.nl}`;
    }
  }

  /** Up to the opening of `tracks`. */
  *head(): Generator<string> {
    const { nl, sp } = this.#layout;
    yield `${this.#first ? '' : ','}${nl}${this.#layout.level(2)}{${nl}`;
    yield* this.#fields(0, this.#tracksAt);
    if (this.#tracksAt < this.#keys.length) yield `${this.#layout.level(3)}"tracks":${sp}[`;
  }

  *tracks(tracks: Iterable<unknown>): Generator<string> {
    const { nl } = this.#layout;
    for (const track of tracks) {
      // One line per track, also when pretty: readable, a changed track is a one-line diff, and
      // a 100,000-track file stays close to the compact size.
      yield `${this.#written === 0 ? '' : ','}${nl}${this.#layout.level(4)}${jsonAt(track, '', true)}`;
      this.#written += 1;
    }
  }

  /** From the close of `tracks` to the end of the object. */
  *tail(): Generator<string> {
    const { nl } = this.#layout;
    if (this.#tracksAt < this.#keys.length) {
      const separator = this.#tracksAt + 1 < this.#keys.length ? ',' : '';
      yield `${this.#written === 0 ? '' : `${nl}${this.#layout.level(3)}`}]${separator}${nl}`;
      yield* this.#fields(this.#tracksAt + 1, this.#keys.length);
    }
    yield `${this.#layout.level(2)}}`;
  }
}

/**
 * The bundle as small pieces, playlist by playlist and track by track, so a 100,000-track export
 * is never one string. Every field of every Playlist and Track is written as the model holds it,
 * in the model's order: JSON needs no escaping beyond its own, and values are never altered.
 */
export function* bundlePieces(playlists: Iterable<Playlist>, options: BundleOptions): Generator<string> {
  const layout = new Layout(options.compact);
  yield* bundleHead(options, layout);
  let playlistCount = 0;
  for (const playlist of playlists) {
    const object = new PlaylistObject(playlist, layout, playlistCount === 0);
    playlistCount += 1;
    yield* object.head();
    yield* object.tracks(playlist.tracks);
    yield* object.tail();
  }
  yield* bundleTail(options, layout, playlistCount);
}

/**
 * A one-playlist bundle written slice by slice (`serializePlaylist`): the bytes `serializeBundle`
 * writes for that playlist. The warnings are read at the end, from `late` when it has them.
 */
export function bundlePlaylistWriter(playlist: Playlist, options: Readonly<Record<string, unknown>>): PlaylistWriter {
  const early = bundleOptions(options);
  const layout = new Layout(early.compact);
  const object = new PlaylistObject(playlist, layout, true);
  return formatKit.chunkedWriter(
    {
      *begin() {
        yield* bundleHead(early, layout);
        yield* object.head();
      },
      write: (tracks) => object.tracks(tracks),
      *end(late) {
        yield* object.tail();
        yield* bundleTail(late.warnings === undefined ? early : bundleOptions({ ...options, warnings: late.warnings }), layout, 1);
      },
    },
    early.maxChunkBytes,
  );
}

/** The bundle as UTF-8 text chunks of at most `options.maxChunkBytes` bytes each. */
export function serializeBundle(playlists: Iterable<Playlist>, options: BundleOptions): Generator<string> {
  return formatKit.chunkUtf8(bundlePieces(playlists, options), options.maxChunkBytes);
}
