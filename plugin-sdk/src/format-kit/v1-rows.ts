import type { PlaylistInput, TrackInput } from '../model.schema.ts';
import { PLAYLIST_COLUMNS, SCHEMA_VERSION, TRACK_COLUMNS, V1_COLUMNS, type V1Column } from './export-columns.ts';
import { boundedText, dateTime, duration, integer, isrcCode, mediaType, optionalText, playlistKind, sourceReference, type Conversion } from './field-values.ts';
import { unguardFormula } from './formula-guard.ts';
import type { IssueCollector } from './issue-collector.ts';
import { LIMITS } from './model-limits.ts';

/**
 * Reads rows of the v1 export columns (CSV and TXT). Columns are found by header name, so
 * a reordered or extended header still reads; rows are grouped into playlists as they come:
 *   - a row with an empty `order` and empty track columns is a playlist without tracks;
 *   - a track row continues the current playlist when its playlist columns are identical and its
 *     `order` is larger than the previous row's, and otherwise starts a new playlist (so the same
 *     playlist exported twice in a row reads back as two playlists, as it was written).
 * Unless the file declared its version before the rows, the first row's schema_version speaks for
 * the file: anything but 1 refuses the whole file.
 * Malformed rows are reported by line and skipped; their neighbours are kept.
 */

type MutablePlaylist = PlaylistInput & { tracks: TrackInput[] };

export interface V1Header {
  readonly index: ReadonlyMap<V1Column, number>;
  readonly width: number;
}

export function unsupportedVersion(issues: IssueCollector, line: number | null, version: string, format: string): void {
  issues.add(
    line,
    'unsupported_schema_version',
    `${format} schema version "${version.slice(0, 20)}" is not supported: this reader understands schema version ${SCHEMA_VERSION} only (a file of another version has other columns and meanings), so the file was not imported; export it again as ${format} schema version ${SCHEMA_VERSION}, or use a reader that knows version "${version.slice(0, 20)}"`,
  );
}

export interface V1HeaderOptions {
  /** Match column names ignoring case (CSV, whose headers spreadsheets retype); TXT matches exactly. */
  readonly ignoreCase: boolean;
  /**
   * The first row's `schema_version` cell (the cell at `position`) and its line, or null without a
   * row: asked only when v1 columns are missing, because a file of another schema version has
   * other columns, and "unsupported version" is then the reason to give, not "missing columns".
   */
  readonly firstRowVersion?: (position: number) => { readonly version: string; readonly line: number } | null;
}

export function readV1Header(names: readonly string[], line: number, issues: IssueCollector, format: string, options: V1HeaderOptions = { ignoreCase: true }): V1Header | null {
  const index = new Map<V1Column, number>();
  const unknown: string[] = [];
  for (const [position, raw] of names.entries()) {
    const name = options.ignoreCase ? raw.trim().toLowerCase() : raw.trim();
    const column = V1_COLUMNS.find((known) => known === name);
    if (column === undefined) {
      if (name !== '') unknown.push(raw.trim());
      continue;
    }
    if (index.has(column)) {
      issues.add(line, 'duplicate_column', `the header names the column "${column}" twice, so its values are ambiguous; the file was not imported`, 'error', position + 1);
      return null;
    }
    index.set(column, position);
  }
  const missing = V1_COLUMNS.filter((column) => !index.has(column));
  const versionAt = index.get('schema_version');
  if (missing.length > 0 && versionAt !== undefined && options.firstRowVersion !== undefined) {
    const first = options.firstRowVersion(versionAt);
    const version = first === null ? '' : unguardFormula(first.version).trim();
    if (first !== null && version !== '' && version !== SCHEMA_VERSION) {
      unsupportedVersion(issues, first.line, version, format);
      return null;
    }
  }
  if (missing.length > 0) {
    issues.add(line, 'missing_columns', `the header lacks the ${format} v1 column${missing.length === 1 ? '' : 's'} ${missing.join(', ')}; the file was not imported`);
    return null;
  }
  if (unknown.length > 0) {
    const listed = unknown.slice(0, 10).map((name) => `"${name.slice(0, 40)}"`).join(', ');
    issues.add(line, 'unknown_columns', `ignored column${unknown.length === 1 ? '' : 's'} not in ${format} v1: ${listed}${unknown.length > 10 ? ', …' : ''}`, 'warning');
  }
  return { index, width: names.length };
}

class RowReader {
  readonly #cells: readonly string[];
  readonly #index: ReadonlyMap<V1Column, number>;
  readonly #line: number;
  readonly #issues: IssueCollector;

  constructor(cells: readonly string[], index: ReadonlyMap<V1Column, number>, line: number, issues: IssueCollector) {
    this.#cells = cells;
    this.#index = index;
    this.#line = line;
    this.#issues = issues;
  }

  /** The cell's value with the formula guard removed; absent trailing cells read as empty. */
  get(column: V1Column): string {
    const position = this.#index.get(column);
    return position === undefined ? '' : unguardFormula(this.#cells[position] ?? '');
  }

  /**
   * Whether the row's cells of `columns` equal `cells` (read the same way, in that order): how a
   * row shows it continues a playlist, compared cell by cell so the rows of a long playlist
   * build no key to compare.
   */
  repeats(columns: readonly V1Column[], cells: readonly string[]): boolean {
    for (let index = 0; index < columns.length; index++) {
      if (this.get(columns[index]!) !== cells[index]) return false;
    }
    return true;
  }

  columnNumber(column: V1Column): number | null {
    const position = this.#index.get(column);
    return position === undefined ? null : position + 1;
  }

  warn(column: V1Column, code: string, message: string): void {
    this.#issues.add(this.#line, code, message, 'warning', this.columnNumber(column));
  }

  text(column: V1Column, max: number): string | null {
    const value = optionalText(this.get(column));
    return value === null ? null : this.bounded(column, value, max);
  }

  requiredText(column: V1Column, max: number): string {
    return this.bounded(column, this.get(column), max);
  }

  bounded(column: V1Column, value: string, max: number): string {
    const bounded = boundedText(value, max);
    if (bounded.truncated) this.warn(column, 'value_truncated', `${column} is longer than ${max} characters and was cut`);
    return bounded.value;
  }

  convert<T>(column: V1Column, conversion: Conversion<T>, fallback: T): T {
    if (conversion.problem === undefined) return conversion.value;
    this.warn(column, 'invalid_value', conversion.problem);
    return fallback;
  }
}

function readPlaylist(row: RowReader): MutablePlaylist {
  return {
    id: row.text('playlist_id', LIMITS.text),
    name: row.requiredText('playlist_name', LIMITS.playlistName),
    description: row.text('playlist_description', LIMITS.text),
    kind: row.convert('playlist_kind', playlistKind(row.get('playlist_kind')), 'PLAYLIST'),
    owner_id: row.text('playlist_owner_id', LIMITS.text),
    artwork_uri: row.text('playlist_artwork_uri', LIMITS.text),
    created_at: row.convert('playlist_created_at', dateTime(row.get('playlist_created_at'), 'playlist_created_at'), null),
    updated_at: row.convert('playlist_updated_at', dateTime(row.get('playlist_updated_at'), 'playlist_updated_at'), null),
    tracks: [],
  };
}

function readTrack(row: RowReader, position: number): TrackInput {
  // Cells are read in column order so that a row's warnings come out left to right.
  const sourcePosition = row.convert('source_position', integer(row.get('source_position'), 'source_position'), null);
  const id = row.text('track_id', LIMITS.text);
  const sourceItemId = row.text('source_item_id', LIMITS.text);
  const title = row.requiredText('title', LIMITS.title);
  const artist = row.requiredText('artist', LIMITS.artist);
  const album = row.text('album', LIMITS.text);
  const durationSeconds = row.convert('duration_seconds', duration(row.get('duration_seconds')), null);
  const isrc = row.convert('isrc', isrcCode(row.get('isrc'), 'isrc'), null);
  const providerUris: Record<string, string> = {};
  const metadata: Record<string, unknown> = {};
  const sourceUri = row.text('source_uri', LIMITS.providerUri);
  if (sourceUri !== null) {
    // A provider URI, or a Spotify/TIDAL link as one; anything else (a web page, a local file) stays as written.
    const reference = sourceReference(sourceUri.trim());
    if (reference.kind === 'provider') providerUris[reference.provider] = reference.uri;
    else metadata.source_uri = sourceUri;
  }
  const artworkUri = row.text('artwork_uri', LIMITS.text);
  const addedAt = row.convert('added_at', dateTime(row.get('added_at'), 'added_at'), null);
  const media = row.convert('media_type', mediaType(row.get('media_type')), 'unknown');
  const unsupportedReason = row.text('unsupported_reason', LIMITS.text);
  return {
    id,
    title,
    artist,
    album,
    duration_s: durationSeconds,
    isrc,
    artwork_uri: artworkUri,
    provider_uris: providerUris,
    metadata,
    media_type: media,
    // The file has no columns of their own; both follow from what it does record.
    is_local: media === 'local_file',
    is_migratable: unsupportedReason === null,
    unsupported_reason: unsupportedReason,
    position,
    source_position: sourcePosition,
    source_item_id: sourceItemId,
    added_at: addedAt,
  };
}

interface Group {
  /** The row's playlist cells (`PLAYLIST_COLUMNS` order) that every row continuing the group repeats. */
  readonly cells: readonly string[];
  readonly playlist: MutablePlaylist;
  readonly metadataOnly: boolean;
  lastOrder: number;
}

/** Feeds rows one at a time; `add` returns false once the file has been refused. */
export class V1RowGrouper {
  readonly #header: V1Header;
  readonly #issues: IssueCollector;
  readonly #format: string;
  readonly #playlists: MutablePlaylist[] = [];
  #group: Group | null = null;
  #versionChecked = false;
  #refused = false;
  #playlistLimitReported = false;

  /**
   * `versionDeclared`: the file already stated schema version 1 before the rows (TXT's comment
   * line), so the first row need not speak for the file; a row with another version is skipped.
   */
  constructor(header: V1Header, issues: IssueCollector, format: string, options: { readonly versionDeclared: boolean } = { versionDeclared: false }) {
    this.#header = header;
    this.#issues = issues;
    this.#format = format;
    this.#versionChecked = options.versionDeclared;
  }

  add(line: number, cells: readonly string[]): boolean {
    if (this.#refused) return false;
    const issues = this.#issues;
    const row = new RowReader(cells, this.#header.index, line, issues);
    const version = row.get('schema_version').trim();
    if (!this.#versionChecked) {
      if (version !== SCHEMA_VERSION) {
        unsupportedVersion(issues, line, version, this.#format);
        this.#refused = true;
        this.#playlists.length = 0;
        return false;
      }
      this.#versionChecked = true;
    }
    if (version !== SCHEMA_VERSION) {
      issues.add(line, 'invalid_schema_version', `schema_version is "${version.slice(0, 20)}" instead of ${SCHEMA_VERSION}; the row was skipped`, 'error', row.columnNumber('schema_version'));
      return true;
    }
    const orderCell = row.get('order').trim();
    let order = 0;
    if (orderCell === '') {
      if (!TRACK_COLUMNS.every((column) => row.get(column) === '')) {
        issues.add(line, 'missing_order', 'the row has track values but no order; the row was skipped', 'error', row.columnNumber('order'));
        return true;
      }
    } else if (/^\d{1,9}$/.test(orderCell) && Number(orderCell) >= 1) {
      order = Number(orderCell);
    } else {
      issues.add(line, 'invalid_order', `order "${orderCell.slice(0, 20)}" is not a position counted from 1; the row was skipped`, 'error', row.columnNumber('order'));
      return true;
    }

    const group = this.#group;
    const continues = group !== null && order > 0 && !group.metadataOnly && order > group.lastOrder && row.repeats(PLAYLIST_COLUMNS, group.cells);
    if (!continues) {
      if (this.#playlists.length >= LIMITS.playlists) {
        if (!this.#playlistLimitReported) {
          issues.add(line, 'too_many_playlists', `only the first ${LIMITS.playlists} playlists of the file were read`);
          this.#playlistLimitReported = true;
        }
        return true;
      }
      this.#group = { cells: PLAYLIST_COLUMNS.map((column) => row.get(column)), playlist: readPlaylist(row), metadataOnly: order === 0, lastOrder: 0 };
      this.#playlists.push(this.#group.playlist);
    }
    const current = this.#group;
    if (order === 0 || current === null) return true;
    current.playlist.tracks.push(readTrack(row, current.playlist.tracks.length));
    current.lastOrder = order;
    return true;
  }

  finish(): PlaylistInput[] {
    if (this.#refused) return [];
    if (this.#playlists.length === 0) this.#issues.add(null, 'no_rows', `the file has a ${this.#format} v1 header but no rows`, 'warning');
    return this.#playlists;
  }
}
