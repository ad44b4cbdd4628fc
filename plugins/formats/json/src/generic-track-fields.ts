import { formatKit } from '@opl/plugin-sdk';

/**
 * The fields of a plain playlist export that is no Open Playlist bundle (no `schema_version`, no
 * `$schema`: `{"playlists":[{"name","tracks":[{title, artist, album, duration, isrc, uri}]}]}`, a
 * bare array or one playlist object), turned into the model's before the track is checked, as the
 * CSV and M3U readers read the same values:
 *
 * - `duration`: seconds (`239`, `239.5`, `"239"`) or clock form (`"3:59"`, `"1:02:03"`) ⇒
 *   `duration_s` (unless the track has one); anything else is an `invalid_value` warning.
 * - `uri`: a provider's track URI or Spotify/TIDAL track link ⇒ `provider_uris`; a Spotify
 *   local-file URI, a `file:` URL or a path ⇒ a local file (`metadata.location`, and
 *   `metadata.local_path` for a path); any other address (a web page, a stream, an album link)
 *   ⇒ `metadata.location`. Never opened or fetched.
 * - no `artist`: an empty artist, as a CSV row or an M3U entry without one (a bundle requires it).
 *
 * A bundle's own fields win: a track that has `duration_s` keeps it.
 */

type Entity = Record<string, unknown>;

/** The model's longest duration (`duration_s`), in seconds. */
const MAX_DURATION_SECONDS = 1_000_000;

interface Report {
  warn(message: string): void;
}

function durationSeconds(value: unknown): formatKit.Conversion<number | null> {
  if (typeof value === 'number') {
    return Number.isFinite(value) && value >= 0 && value <= MAX_DURATION_SECONDS ? { value } : { problem: `duration ${String(value).slice(0, 40)} is not a number of seconds the model can hold` };
  }
  if (typeof value === 'string') return formatKit.clockDuration(value, 'duration');
  return { problem: 'duration is neither a number of seconds nor a text such as 3:59' };
}

function record(value: unknown): Entity {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Entity) : {};
}

const LOCAL_FLAGS = { is_local: true, media_type: 'local_file', is_migratable: false, unsupported_reason: formatKit.LOCAL_FILE_REASON } as const;

/** `uri` into the track's provider URIs, local-file flags or metadata (see above). */
function applyUri(raw: Entity, uri: string): void {
  const found = formatKit.classifyLocation(uri.trim(), { fileUrls: 'uri' });
  if (found.kind === 'provider' && (found.item === 'track' || found.item === 'episode')) {
    const providers = record(raw.provider_uris);
    raw.provider_uris = { [found.provider]: found.uri, ...providers };
    return;
  }
  const metadata: Entity = { location: uri.trim(), ...record(raw.metadata) };
  raw.metadata = metadata;
  if (found.kind === 'local_file') {
    Object.assign(raw, LOCAL_FLAGS);
    const track = { title: typeof raw.title === 'string' ? raw.title : '', artist: typeof raw.artist === 'string' ? raw.artist : '', album: typeof raw.album === 'string' ? raw.album : null, duration_s: typeof raw.duration_s === 'number' ? raw.duration_s : null };
    formatKit.fillFromLocalFile(found, track);
    Object.assign(raw, track);
  } else if (found.kind === 'local') {
    metadata.local_path ??= found.path;
    Object.assign(raw, LOCAL_FLAGS);
  }
}

/** Turns a plain export's `duration`, `uri` and missing `artist` into model fields, in place. */
export function applyGenericTrackFields(raw: Entity, report: Report): void {
  if (Object.hasOwn(raw, 'duration')) {
    const value = raw.duration;
    delete raw.duration;
    if (raw.duration_s === undefined && value !== null) {
      const seconds = durationSeconds(value);
      if (seconds.problem === undefined) raw.duration_s = seconds.value;
      else report.warn(`${seconds.problem}; it was left empty`);
    }
  }
  if (Object.hasOwn(raw, 'uri')) {
    const value = raw.uri;
    delete raw.uri;
    if (typeof value === 'string' && value.trim() !== '') applyUri(raw, value);
    else if (value !== null) report.warn('uri is not a text; it was left out');
  }
  if (!Object.hasOwn(raw, 'artist')) raw.artist = '';
}
