import { formatKit, type TrackInput, type XmlElement } from '@opl/plugin-sdk';

/**
 * One `<track>` of a generic XML playlist → a model track. Each field is an attribute or a child
 * element of the same name (an attribute wins when both are given), matched case-insensitively:
 *
 * - `title` (or `name`), `artist` (or `creator`), `album`: text;
 * - `duration`: seconds (`239`, `239.5`) or clock form (`3:59`, `1:02:03`); `duration_ms`
 *   (or `durationMs`): milliseconds;
 * - `isrc`: normalised by `formatKit.isrcCode` (`GB-AAN-97-00044` ⇒ `GBAAN9700044`);
 * - `uri` (or `url`, `location`, `link`): read by the SDK's `formatKit.classifyLocation`, as
 *   M3U, PLS, WPL and XSPF read a location (never opened or fetched): a provider's track URI or
 *   Spotify/TIDAL track link ⇒ `provider_uris`; a Spotify local-file URI, a `file:` URL or a
 *   path ⇒ a local-file track (`metadata.location`, and `metadata.local_path` for a path); any
 *   other address ⇒ `metadata.location`.
 *
 * A value the model cannot hold is an `invalid_value` warning with the field left empty; a name
 * the reader does not know is an `unknown_field` warning, once per name.
 */

const FIELDS: ReadonlyMap<string, string> = new Map([
  ['title', 'title'],
  ['name', 'title'],
  ['artist', 'artist'],
  ['creator', 'artist'],
  ['album', 'album'],
  ['duration', 'duration'],
  ['duration_ms', 'duration_ms'],
  ['durationms', 'duration_ms'],
  ['isrc', 'isrc'],
  ['uri', 'uri'],
  ['url', 'uri'],
  ['location', 'uri'],
  ['link', 'uri'],
]);

const LOCAL_FLAGS = { is_local: true, media_type: 'local_file', is_migratable: false, unsupported_reason: formatKit.LOCAL_FILE_REASON } as const;

const shown = (value: string): string => JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);

/** Reports each field name the reader does not know once per parse. */
export class UnknownFields {
  readonly #reported = new Set<string>();

  report(name: string, line: number, issues: formatKit.IssueCollector): void {
    if (this.#reported.has(name) || this.#reported.size >= 100) return;
    this.#reported.add(name);
    issues.warn(line, 'unknown_field', `the track field ${shown(name)} is not one this reader knows (title, artist, album, duration, isrc, uri); it was ignored (reported once)`);
  }
}

/** The track's fields by their model name: attributes first, then child elements (the first of each name). */
function fieldsOf(element: XmlElement, unknown: UnknownFields, issues: formatKit.IssueCollector): Map<string, string> {
  const fields = new Map<string, string>();
  for (const key in element.attributes) {
    // A prefixed attribute (`{namespace}local`) belongs to another vocabulary: not a field.
    if (key.startsWith('{')) continue;
    const field = FIELDS.get(key.toLowerCase());
    if (field === undefined) unknown.report(key, element.line, issues);
    else if (!fields.has(field)) fields.set(field, element.attributes[key]!);
  }
  for (const child of element.children) {
    const field = FIELDS.get(child.name.toLowerCase());
    if (field === undefined) unknown.report(child.name, child.line, issues);
    else if (!fields.has(field)) fields.set(field, child.text);
  }
  return fields;
}

function text(value: string | undefined, max: number, label: string, line: number, issues: formatKit.IssueCollector): string | null {
  const trimmed = value?.trim() ?? '';
  if (trimmed === '') return null;
  const { value: kept, truncated } = formatKit.boundedText(trimmed, max);
  if (truncated) issues.warn(line, 'value_truncated', `the ${label} is longer than ${max} characters and was cut`);
  return kept;
}

function converted<T>(conversion: formatKit.Conversion<T | null>, line: number, issues: formatKit.IssueCollector): T | null {
  if (conversion.problem === undefined) return conversion.value;
  issues.warn(line, 'invalid_value', `${conversion.problem}; it was left empty`);
  return null;
}

function applyUri(track: TrackInput, uri: string): void {
  const found = formatKit.classifyLocation(uri, { fileUrls: 'uri' });
  if (found.kind === 'provider' && (found.item === 'track' || found.item === 'episode')) {
    track.provider_uris = { [found.provider]: found.uri };
    if (found.item === 'episode') Object.assign(track, { media_type: 'episode', is_migratable: false, unsupported_reason: formatKit.PROVIDER_ITEM_REASONS.episode });
    return;
  }
  const metadata: Record<string, unknown> = { location: uri };
  track.metadata = metadata;
  if (found.kind === 'local_file') {
    Object.assign(track, LOCAL_FLAGS);
    formatKit.fillFromLocalFile(found, track);
  } else if (found.kind === 'local') {
    metadata.local_path = found.path;
    Object.assign(track, LOCAL_FLAGS);
  } else if (found.kind === 'provider') {
    // An album, a playlist, an artist…: a link to something that is not a song.
    Object.assign(track, { media_type: 'unknown', is_migratable: false, unsupported_reason: formatKit.providerItemReason(found.item) });
  }
}

/** The track, or null (with an `empty_track` warning) when it names neither a title, an artist nor a location. */
export function readTrack(element: XmlElement, position: number, unknown: UnknownFields, issues: formatKit.IssueCollector): TrackInput | null {
  const line = element.line;
  const fields = fieldsOf(element, unknown, issues);
  const track: TrackInput = {
    title: text(fields.get('title'), formatKit.LIMITS.title, 'title', line, issues) ?? '',
    artist: text(fields.get('artist'), formatKit.LIMITS.artist, 'artist', line, issues) ?? '',
    album: text(fields.get('album'), formatKit.LIMITS.text, 'album', line, issues),
    isrc: converted(formatKit.isrcCode(fields.get('isrc') ?? '', 'isrc'), line, issues),
    duration_s: null,
    position,
  };
  const ms = fields.get('duration_ms');
  if (fields.has('duration')) track.duration_s = converted(formatKit.clockDuration(fields.get('duration')!, 'duration'), line, issues);
  else if (ms !== undefined) track.duration_s = converted(formatKit.millisecondsDuration(ms, 'duration_ms'), line, issues);
  const uri = text(fields.get('uri'), formatKit.LIMITS.providerUri, 'uri', line, issues);
  if (uri !== null) applyUri(track, uri);
  if (track.title === '' && track.artist === '' && uri === null) {
    issues.warn(line, 'empty_track', '<track> names neither a title, an artist nor a location; it was skipped');
    return null;
  }
  return track;
}
