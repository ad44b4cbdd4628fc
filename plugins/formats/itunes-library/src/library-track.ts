import { formatKit, type TrackInput, type XmlElement } from '@opl/plugin-sdk';
import { booleanValue, dictEntries, integerValue, stringValue } from './plist-values.ts';
import { libraryReleaseDate } from './release-date.ts';

/**
 * One entry of the library's `Tracks` dict as a model track. A library song carries catalogue
 * metadata (name, artist, album, duration, year), so it stays a migratable `track` that matching
 * finds by that metadata; where its file lies (`Location`, a `file://` URL) is kept as
 * `metadata.location` / `metadata.local_path` and never opened. Podcasts, movies, TV shows, music
 * videos and internet streams are not songs a music service can take: they keep their media type
 * and an `unsupported_reason`. Library details the model has no field for (counts, sort names, the
 * compilation flag, when the song entered the library) go to `metadata`.
 */

const TEXT_MAX = formatKit.LIMITS.title;

interface Unsupported {
  readonly key: string;
  readonly mediaType: 'episode' | 'video' | 'unknown';
  readonly reason: string;
}

/** Boolean flags iTunes sets on non-song items, checked in this order. */
const UNSUPPORTED_FLAGS: readonly Unsupported[] = [
  { key: 'Podcast', mediaType: 'episode', reason: 'podcast episode: music services do not take podcast episodes into playlists' },
  { key: 'Movie', mediaType: 'video', reason: 'movie: music services do not take movies into playlists' },
  { key: 'TV Show', mediaType: 'video', reason: 'TV show: music services do not take TV episodes into playlists' },
  { key: 'Music Video', mediaType: 'video', reason: 'music video: the playlist target takes songs, not videos' },
  // Any other video (a home video, an unsorted clip) is marked only so; songs never are.
  { key: 'Has Video', mediaType: 'video', reason: 'video: the playlist target takes songs, not videos' },
];
const STREAM: Unsupported = { key: 'Track Type', mediaType: 'unknown', reason: 'internet stream: a radio or stream address, not a song' };

/** Text fields copied as they are, bounded to the model. */
const TEXT_FIELDS = [
  ['Name', 'title'],
  ['Artist', 'artist'],
  ['Album', 'album'],
  ['Genre', 'genre'],
  ['Composer', 'composer'],
] as const;
const INTEGER_FIELDS = [
  ['Year', 'release_year'],
  ['Track Number', 'track_number'],
  ['Disc Number', 'disc_number'],
] as const;
/** Library fields kept in `metadata` (strings and numbers, as written): the model has no field for them. */
const METADATA_FIELDS = [
  ['Album Artist', 'album_artist'],
  ['Disc Count', 'disc_count'],
  ['Track Count', 'track_count'],
  ['Sort Name', 'sort_name'],
  ['Sort Artist', 'sort_artist'],
  ['Kind', 'itunes_kind'],
  ['Track Type', 'itunes_track_type'],
  ['Persistent ID', 'itunes_persistent_id'],
  ['Track ID', 'itunes_track_id'],
] as const;

function bounded(value: string, what: string, line: number, issues: formatKit.IssueCollector): string {
  const cut = formatKit.boundedText(value, TEXT_MAX);
  if (cut.truncated) issues.warn(line, 'value_truncated', `the ${what} is longer than ${TEXT_MAX} characters and was cut`);
  return cut.value;
}

/** A `<date>` value that is a valid timestamp (`2019-03-01T10:00:00Z`), else null. */
function dateValue(element: XmlElement | undefined): string | null {
  if (element?.name !== 'date') return null;
  const conversion = formatKit.dateTime(element.text, 'date');
  return conversion.problem === undefined ? conversion.value : null;
}

export function libraryTrack(dict: XmlElement, issues: formatKit.IssueCollector): TrackInput {
  const entries = dictEntries(dict);
  const track: TrackInput = { title: '', artist: '' };
  for (const [key, field] of TEXT_FIELDS) {
    const value = stringValue(entries.get(key));
    if (value !== null) track[field] = bounded(value, key.toLowerCase(), entries.get(key)!.line, issues);
  }
  for (const [key, field] of INTEGER_FIELDS) {
    const value = integerValue(entries.get(key));
    if (value !== null && value >= 0) track[field] = value;
  }
  const totalTime = integerValue(entries.get('Total Time'));
  if (totalTime !== null && totalTime >= 0 && totalTime / 1_000 <= 1_000_000) track.duration_s = totalTime / 1_000;
  if (booleanValue(entries.get('Explicit')) === true) track.explicit = true;
  else if (booleanValue(entries.get('Clean')) === true) track.explicit = false;

  const metadata: Record<string, unknown> = {};
  for (const [key, field] of METADATA_FIELDS) {
    const element = entries.get(key);
    const value = stringValue(element) ?? integerValue(element);
    if (value !== null) metadata[field] = typeof value === 'string' ? formatKit.boundedText(value, 1_000).value : value;
  }
  // The model has no album-level flag: a compilation (various artists) is kept for whoever reads it.
  if (booleanValue(entries.get('Compilation')) === true) metadata.compilation = true;
  // When the song entered the library, not the playlist: `added_at` is the playlist's, which a library does not record.
  const dateAdded = dateValue(entries.get('Date Added'));
  if (dateAdded !== null) metadata.library_added_at = dateAdded;
  const releaseDate = dateValue(entries.get('Release Date'));
  if (releaseDate !== null) {
    // The value as written, since release_date keeps only its certain part (release-date.ts).
    metadata.itunes_release_date = releaseDate;
    const release = libraryReleaseDate(releaseDate);
    // `Year` is the song's own tag and wins; a release date of another year (a reissue) stays in metadata only.
    if (release !== null && (track.release_year === undefined || track.release_year === release.year)) {
      track.release_date = release.date;
      track.release_year = release.year;
    }
  }
  const location = stringValue(entries.get('Location'));
  if (location !== null && location !== '') {
    metadata.location = formatKit.boundedText(location, 10_000).value;
    const kind = formatKit.classifyLocation(location);
    if (kind.kind === 'local') metadata.local_path = formatKit.boundedText(kind.path, 10_000).value;
    else if (kind.kind === 'provider') track.provider_uris = { [kind.provider]: kind.uri };
    if (track.title === '') track.title = bounded(formatKit.fileStem(kind.kind === 'local' ? kind.path : location), 'file name', dict.line, issues);
  }
  track.metadata = metadata;

  const unsupported = UNSUPPORTED_FLAGS.find((flag) => booleanValue(entries.get(flag.key)) === true) ?? (stringValue(entries.get('Track Type')) === 'URL' ? STREAM : null);
  // No flag marks an audiobook (or a booklet): only its Kind does (`Audible file`, `PDF document`), read as track tables read it.
  const byKind = unsupported === null ? formatKit.unsupportedKind(stringValue(entries.get('Kind')) ?? '') : null;
  const reason = unsupported ?? byKind;
  if (reason !== null) Object.assign(track, { media_type: reason.mediaType, is_migratable: false, unsupported_reason: reason.reason });
  return track;
}
