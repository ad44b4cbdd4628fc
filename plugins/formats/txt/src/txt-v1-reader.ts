import type { PlaylistInput, TrackInput } from '@opl/plugin-sdk';
import { boundedText, dateTime, duration, integer, mediaType, optionalText, playlistKind, type Conversion } from './field-values.ts';
import { unguardFormula } from './formula-guard.ts';
import type { IssueCollector } from './issue-collector.ts';
import { LIMITS } from './model-limits.ts';
import { providerOfUri } from './source-uri.ts';
import { isSkippable, type TextLine } from './text-lines.ts';
import { PLAYLIST_COLUMNS, SCHEMA_VERSION, TRACK_COLUMNS, TXT_V1_COLUMNS, type TxtColumn } from './txt-columns.ts';

/**
 * Reads the TXT v1 layout written by the serializer (and by anything else that follows SPEC
 * "Export file columns"). Columns are found by header name, so a reordered or extended header still
 * reads; rows are grouped into playlists as they come:
 *   - a row with an empty `order` and empty track columns is a playlist without tracks;
 *   - a track row continues the current playlist when its playlist columns are identical and its
 *     `order` is larger than the previous row's, and otherwise starts a new playlist (so the same
 *     playlist exported twice in a row reads back as two playlists, as it was written).
 * Malformed rows are reported by line and skipped; their neighbours are kept.
 */

export const MAGIC_PATTERN = /^#\s*Open Playlist TXT\b/i;
const MAGIC_VERSION = /^#\s*Open Playlist TXT\s+v(\S*)/i;
const SCHEMA_COMMENT = /^#\s*schema_version\s*[=:]\s*([^\s;]*)/i;

type MutablePlaylist = PlaylistInput & { tracks: TrackInput[] };

interface Group {
  readonly key: string;
  readonly playlist: MutablePlaylist;
  readonly metadataOnly: boolean;
  lastOrder: number;
}

/** True when the first meaningful line is the v1 comment or the first non-comment line is a header naming `schema_version`. */
export function looksLikeTxtV1(lines: readonly TextLine[]): boolean {
  for (const line of lines) {
    const trimmed = line.text.trim();
    if (trimmed === '') continue;
    if (MAGIC_PATTERN.test(trimmed)) return true;
    if (trimmed.startsWith('#')) continue;
    return line.text.includes('\t') && line.text.split('\t').some((cell) => cell.trim() === 'schema_version');
  }
  return false;
}

function unsupportedVersion(issues: IssueCollector, line: number, version: string): void {
  issues.add(
    line,
    'unsupported_schema_version',
    `TXT schema version "${version.slice(0, 20)}" is not supported: this reader understands schema version ${SCHEMA_VERSION} only, so the file was not imported`,
  );
}

class RowReader {
  readonly #cells: string[];
  readonly #index: ReadonlyMap<TxtColumn, number>;
  readonly #line: number;
  readonly #issues: IssueCollector;

  constructor(cells: string[], index: ReadonlyMap<TxtColumn, number>, line: number, issues: IssueCollector) {
    this.#cells = cells;
    this.#index = index;
    this.#line = line;
    this.#issues = issues;
  }

  /** The cell's value with the formula guard removed; absent trailing cells read as empty. */
  get(column: TxtColumn): string {
    const position = this.#index.get(column);
    return position === undefined ? '' : unguardFormula(this.#cells[position] ?? '');
  }

  columnNumber(column: TxtColumn): number | null {
    const position = this.#index.get(column);
    return position === undefined ? null : position + 1;
  }

  warn(column: TxtColumn, code: string, message: string): void {
    this.#issues.add(this.#line, code, message, 'warning', this.columnNumber(column));
  }

  /** Optional text, cut to the model's bound with a warning. */
  text(column: TxtColumn, max: number): string | null {
    const value = optionalText(this.get(column));
    return value === null ? null : this.bounded(column, value, max);
  }

  /** Required text (empty allowed), cut to the model's bound with a warning. */
  requiredText(column: TxtColumn, max: number): string {
    return this.bounded(column, this.get(column), max);
  }

  bounded(column: TxtColumn, value: string, max: number): string {
    const bounded = boundedText(value, max);
    if (bounded.truncated) this.warn(column, 'value_truncated', `${column} is longer than ${max} characters and was cut`);
    return bounded.value;
  }

  /** A converted value, or `fallback` with a warning when the cell does not convert. */
  convert<T>(column: TxtColumn, conversion: Conversion<T>, fallback: T): T {
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
  let isrc = optionalText(row.get('isrc').trim());
  if (isrc !== null && isrc.length > LIMITS.isrc) {
    row.warn('isrc', 'invalid_value', `isrc "${isrc.slice(0, 40)}" is longer than ${LIMITS.isrc} characters and was dropped`);
    isrc = null;
  }
  const providerUris: Record<string, string> = {};
  const metadata: Record<string, unknown> = {};
  const sourceUri = row.text('source_uri', LIMITS.providerUri);
  if (sourceUri !== null) {
    const provider = providerOfUri(sourceUri);
    if (provider === null) metadata.source_uri = sourceUri;
    else providerUris[provider] = sourceUri;
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

interface Header {
  readonly index: ReadonlyMap<TxtColumn, number>;
  readonly width: number;
}

function readHeader(line: TextLine, issues: IssueCollector): Header | null {
  const names = line.text.split('\t').map((name) => name.trim());
  const index = new Map<TxtColumn, number>();
  const unknown: string[] = [];
  for (const [position, name] of names.entries()) {
    const column = TXT_V1_COLUMNS.find((known) => known === name);
    if (column === undefined) {
      if (name !== '') unknown.push(name);
      continue;
    }
    if (index.has(column)) {
      issues.add(line.number, 'duplicate_column', `the header names the column "${column}" twice, so its values are ambiguous; the file was not imported`, 'error', position + 1);
      return null;
    }
    index.set(column, position);
  }
  const missing = TXT_V1_COLUMNS.filter((column) => !index.has(column));
  if (missing.length > 0) {
    issues.add(line.number, 'missing_columns', `the header lacks the TXT v1 column${missing.length === 1 ? '' : 's'} ${missing.join(', ')}; the file was not imported`);
    return null;
  }
  if (unknown.length > 0) {
    const listed = unknown.slice(0, 10).map((name) => `"${name.slice(0, 40)}"`).join(', ');
    issues.add(line.number, 'unknown_columns', `ignored column${unknown.length === 1 ? '' : 's'} not in TXT v1: ${listed}${unknown.length > 10 ? ', …' : ''}`, 'warning');
  }
  return { index, width: names.length };
}

export function readTxtV1(lines: readonly TextLine[], issues: IssueCollector): PlaylistInput[] {
  let declared: { readonly version: string; readonly line: number } | null = null;
  let cursor = 0;
  for (; cursor < lines.length; cursor++) {
    const line = lines[cursor] as TextLine;
    if (!isSkippable(line.text)) break;
    const trimmed = line.text.trim();
    const magic = MAGIC_VERSION.exec(trimmed);
    if (magic && magic[1] !== SCHEMA_VERSION) {
      unsupportedVersion(issues, line.number, magic[1] ?? '');
      return [];
    }
    const schema = SCHEMA_COMMENT.exec(trimmed);
    if (schema && declared === null) declared = { version: schema[1] ?? '', line: line.number };
  }
  if (declared !== null && declared.version !== SCHEMA_VERSION) {
    unsupportedVersion(issues, declared.line, declared.version);
    return [];
  }
  const headerLine = lines[cursor];
  if (headerLine === undefined) {
    issues.add(null, 'missing_header', 'the file starts like TXT v1 but has no header row naming the columns; nothing was imported');
    return [];
  }
  const header = readHeader(headerLine, issues);
  if (header === null) return [];

  const playlists: MutablePlaylist[] = [];
  let group: Group | null = null;
  let versionChecked = declared !== null;
  let playlistLimitReported = false;

  for (const line of lines.slice(cursor + 1)) {
    if (isSkippable(line.text)) continue;
    const cells = line.text.split('\t');
    if (cells.length > header.width) {
      issues.add(line.number, 'too_many_cells', `the row has ${cells.length} tab-separated cells but the header names ${header.width}; the row was skipped`);
      continue;
    }
    // Fewer cells are fine: editors that strip trailing whitespace drop trailing empty cells.
    const row = new RowReader(cells, header.index, line.number, issues);
    const version = row.get('schema_version').trim();
    if (!versionChecked) {
      // No schema comment: the first row's version speaks for the file.
      if (version !== SCHEMA_VERSION) {
        unsupportedVersion(issues, line.number, version);
        return [];
      }
      versionChecked = true;
    }
    if (version !== SCHEMA_VERSION) {
      issues.add(line.number, 'invalid_schema_version', `schema_version is "${version.slice(0, 20)}" instead of ${SCHEMA_VERSION}; the row was skipped`, 'error', row.columnNumber('schema_version'));
      continue;
    }
    const orderCell = row.get('order').trim();
    const trackCellsEmpty = TRACK_COLUMNS.every((column) => row.get(column) === '');
    let order = 0;
    if (orderCell === '') {
      if (!trackCellsEmpty) {
        issues.add(line.number, 'missing_order', 'the row has track values but no order; the row was skipped', 'error', row.columnNumber('order'));
        continue;
      }
    } else if (/^\d{1,9}$/.test(orderCell) && Number(orderCell) >= 1) {
      order = Number(orderCell);
    } else {
      issues.add(line.number, 'invalid_order', `order "${orderCell.slice(0, 20)}" is not a position counted from 1; the row was skipped`, 'error', row.columnNumber('order'));
      continue;
    }

    const key = JSON.stringify(PLAYLIST_COLUMNS.map((column) => row.get(column)));
    const continues = group !== null && order > 0 && !group.metadataOnly && group.key === key && order > group.lastOrder;
    if (!continues) {
      if (playlists.length >= LIMITS.playlists) {
        if (!playlistLimitReported) {
          issues.add(line.number, 'too_many_playlists', `only the first ${LIMITS.playlists} playlists of the file were read`);
          playlistLimitReported = true;
        }
        continue;
      }
      group = { key, playlist: readPlaylist(row), metadataOnly: order === 0, lastOrder: 0 };
      playlists.push(group.playlist);
    }
    if (order === 0 || group === null) continue;
    group.playlist.tracks.push(readTrack(row, group.playlist.tracks.length));
    group.lastOrder = order;
  }
  if (playlists.length === 0) issues.add(null, 'no_rows', 'the file has a TXT v1 header but no rows', 'warning');
  return playlists;
}
