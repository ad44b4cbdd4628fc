import { formatKit, type PlaylistInput, type TrackInput } from '@opl/plugin-sdk';
import { DeferredWarnings, type Warnings } from './deferred-warnings.ts';
import { decodeField, PLAYLIST_FIELDS, TRACK_FIELDS, type FieldSpec, type RawField } from './extension-fields.ts';
import { classifyLocation } from './locations.ts';
import { dateTime, LIMITS, shown } from './model-values.ts';
import { uriReferenceProblem } from './uri-reference.ts';
import { LOCAL_FILE_REASON } from './xspf-names.ts';

/**
 * What the XSPF and JSPF readers extract, already checked against the XSPF specification; the
 * mapping to the model below is shared by both forms.
 */
export interface SourceTrack {
  readonly line: number | null;
  readonly locations: readonly string[];
  readonly identifiers: readonly string[];
  readonly title: string | null;
  readonly creator: string | null;
  readonly annotation: string | null;
  readonly info: string | null;
  readonly image: string | null;
  readonly album: string | null;
  readonly trackNum: number | null;
  /** Milliseconds. */
  readonly duration: number | null;
  /** Our extension's fields by name, or null when the track has no Open Playlist extension. */
  readonly extension: ReadonlyMap<string, RawField> | null;
}

export interface SourcePlaylist {
  readonly line: number | null;
  readonly title: string | null;
  readonly creator: string | null;
  readonly annotation: string | null;
  readonly info: string | null;
  readonly location: string | null;
  readonly identifier: string | null;
  readonly image: string | null;
  readonly date: string | null;
  readonly license: string | null;
  readonly extension: ReadonlyMap<string, RawField> | null;
  /** As read, or already converted by a reader that converts each track as it reads it. */
  readonly tracks: readonly SourceTrack[] | ConvertedTracks;
}

/**
 * A track's locations and an image that are no URI, as XSPF wants (uri-reference.ts): file paths
 * players write as they are (`C:\Music\a b.mp3`). Read as written — as the paths they name — with
 * a warning for their track, not a refusal of the whole file (see xspf-reader.ts).
 */
function warnNonUris(uris: readonly (string | null)[], label: string, line: number | null, issues: Warnings): void {
  for (const uri of uris) {
    const problem = uri === null ? null : uriReferenceProblem(uri);
    if (problem !== null) issues.warn(line, 'invalid_value', `the ${label} ${shown(uri!)} is not a URI, as XSPF requires (${problem}); it was read as written`);
  }
}

function text(value: string | null, max: number, line: number | null, label: string, issues: Warnings): string | null {
  if (value === null) return null;
  const { value: kept, truncated } = formatKit.boundedText(value, max);
  if (truncated) issues.warn(line, 'value_truncated', `${label} is longer than ${max} characters; it was shortened`);
  return kept;
}

/** Extension fields onto `target`; a bad value is reported and the field keeps its default. */
function applyExtension(target: Record<string, unknown>, specs: readonly FieldSpec[], extension: ReadonlyMap<string, RawField>, line: number | null, issues: Warnings): void {
  for (const spec of specs) {
    if (!extension.has(spec.field)) continue;
    const result = decodeField(spec, extension.get(spec.field));
    if (result.problem !== undefined) {
      issues.warn(line, result.code ?? 'invalid_value', `extension field ${spec.field} ${result.problem}; it was left empty`);
      continue;
    }
    if (result.truncated === true) issues.warn(line, 'value_truncated', `extension field ${spec.field} is too long; it was shortened`);
    target[spec.field] = result.value;
  }
}

/** `isrc:GBDUW0000059`, `urn:isrc:GB-DUW-00-00059` (RFC 3986 schemes are case-insensitive). */
const ISRC_IDENTIFIER = /^(?:urn:)?isrc:(.+)$/is;
/** Country, registrant, year, designation: what `formatKit.isrcCode` gives for a real ISRC. */
const ISRC_CODE = /^[A-Z]{2}[A-Z0-9]{3}\d{7}$/;

/** The ISRC an `<identifier>` names, in its 12-character uppercase form, or null. */
function isrcOf(identifier: string): string | null {
  const code = ISRC_IDENTIFIER.exec(identifier)?.[1];
  if (code === undefined) return null;
  const normalised = formatKit.isrcCode(code, 'ISRC').value;
  return typeof normalised === 'string' && ISRC_CODE.test(normalised) ? normalised : null;
}

/** What the locations of a track without a title can name it by. */
interface NamingLocations {
  /** The first local path or remote URL, whose file name names the track when nothing else does. */
  readonly fileName: string | null;
  /** The first remote URL, when the track has no provider URI and no local file. */
  readonly remoteUrl: string | null;
  /** The first Spotify local-file URI, when the track has no provider URI and no local path: it names the track. */
  readonly localFile: Extract<formatKit.LocationKind, { readonly kind: 'local_file' }> | null;
}

/**
 * Without our extension: an identifier naming an ISRC (`isrc:…`, `urn:isrc:…`) sets `isrc` (the
 * first; normalised by `formatKit.isrcCode`), identifiers and locations naming a provider's track
 * become `provider_uris` (first per provider wins); other locations are kept as
 * `metadata.location` (the first, as M3U imports keep theirs) and `metadata.locations` (all, when
 * several), other identifiers as `metadata.identifiers`. A local file's location is kept as the
 * path it names, decoded from its URI (locations.ts: `file:///home/u/a%20b.mp3` ⇒ `/home/u/a
 * b.mp3`), with `metadata.local_path` as the M3U, PLS and WPL readers set it; a malformed
 * percent-encoding is kept as written, with an `invalid_value` warning. A track whose only
 * locations are local files is a local-file track.
 */
function guessFromLocations(track: TrackInput, source: SourceTrack, issues: Warnings): NamingLocations {
  const providerUris: Record<string, string> = {};
  const items = new Set<formatKit.ProviderItem>();
  /** A provider's track or episode (an album, a playlist… is no track: it stays a location or identifier). */
  const provider = (uri: string): boolean => {
    const found = classifyLocation(uri);
    if (found.kind !== 'provider' || (found.item !== 'track' && found.item !== 'episode')) return false;
    if (uri.length > LIMITS.providerUri || found.provider.length > LIMITS.providerKey) return false;
    if (providerUris[found.provider] === undefined) items.add(found.item);
    providerUris[found.provider] ??= found.uri;
    return true;
  };
  const identifiers = source.identifiers.filter((identifier) => {
    const isrc = isrcOf(identifier);
    if (isrc === null) return !provider(identifier);
    track.isrc ??= isrc;
    // A second, different ISRC is not lost: it stays with the other identifiers.
    return isrc !== track.isrc;
  });
  const locations: string[] = [];
  let localPath: string | null = null;
  let fileName: string | null = null;
  let remoteUrl: string | null = null;
  let localFile: Extract<formatKit.LocationKind, { readonly kind: 'local_file' }> | null = null;
  let collection: formatKit.ProviderItem | null = null;
  for (const written of new Set(source.locations.filter((location) => !provider(location)))) {
    const found = classifyLocation(written);
    if (found.kind !== 'local') {
      locations.push(written);
      if (found.kind === 'remote') {
        fileName ??= found.url;
        remoteUrl ??= found.url;
      } else if (found.kind === 'local_file') localFile ??= found;
      else if (found.kind === 'provider') collection ??= found.item;
      continue;
    }
    // A malformed escape that is no URI syntax at all (`%zz`) was reported with the other non-URIs (warnNonUris).
    if (found.malformed && uriReferenceProblem(written) === null) issues.warn(source.line, 'invalid_value', `the location ${shown(written)} has a malformed percent-encoding (a % that does not begin an escape, or escapes that are not UTF-8); it was kept as written`);
    locations.push(found.location);
    localPath ??= found.path;
    fileName ??= found.path;
  }
  const distinct = [...new Set(locations)];
  const metadata: Record<string, unknown> = {};
  if (distinct.length > 0) metadata.location = distinct[0];
  if (localPath !== null) metadata.local_path = localPath;
  if (distinct.length > 1) metadata.locations = distinct;
  if (identifiers.length > 0) metadata.identifiers = identifiers;
  if (source.annotation !== null) metadata.annotation = source.annotation;
  if (source.info !== null) metadata.info = source.info;
  track.provider_uris = providerUris;
  track.metadata = metadata;
  const hasProvider = Object.keys(providerUris).length > 0;
  if (localPath !== null && !hasProvider) {
    // A path is only data: the file is never opened.
    track.is_local = true;
    track.media_type = 'local_file';
    track.is_migratable = false;
    track.unsupported_reason = LOCAL_FILE_REASON;
  } else if (localFile !== null && !hasProvider) {
    // A Spotify local file: a file on the device that added it, named by its URI.
    Object.assign(track, { is_local: true, media_type: 'local_file', is_migratable: false, unsupported_reason: formatKit.LOCAL_FILE_REASON });
  } else if (hasProvider && items.has('episode') && !items.has('track')) {
    Object.assign(track, { media_type: 'episode', is_migratable: false, unsupported_reason: formatKit.PROVIDER_ITEM_REASONS.episode });
  } else if (!hasProvider && collection !== null) {
    // An album, a playlist, an artist…: a link to something that is not a song.
    Object.assign(track, { media_type: 'unknown', is_migratable: false, unsupported_reason: formatKit.providerItemReason(collection) });
  }
  const named = hasProvider || localPath !== null;
  return { fileName: hasProvider ? null : fileName, remoteUrl: named || localFile !== null || collection !== null ? null : remoteUrl, localFile: named ? null : localFile };
}

const blank = (text: string | null): boolean => text === null || text.trim() === '';

/**
 * A track without a `<title>` (VLC writes none for an untagged file) is named by its file, as the
 * M3U, PLS and WPL readers name an entry without a title: `formatKit.splitArtistTitle` of the
 * file name (`formatKit.fileStem`), so `Daft Punk - One More Time.mp3` gives the artist too
 * (unless `<creator>` names one) and `07 Title.mp3` the track number (unless `<trackNum>` does).
 * Remote locations are named by the file name of their URL (`http://h/Artist%20-%20Title.mp3`).
 */
function nameFromFile(track: TrackInput, source: SourceTrack, pathOrUrl: string, issues: Warnings): void {
  if (!blank(source.title)) return;
  const names = formatKit.splitArtistTitle(formatKit.fileStem(pathOrUrl), { fileName: true });
  track.title = text(names.title, LIMITS.title, source.line, 'the title from the file name', issues) ?? '';
  if (blank(source.creator)) track.artist = text(names.artist, LIMITS.title, source.line, 'the artist from the file name', issues) ?? '';
  if (source.trackNum === null && names.trackNumber !== null) track.track_number = names.trackNumber;
}

/**
 * A track whose location is a Spotify local-file URI (`spotify:local:<artist>:<album>:<title>:<seconds>`)
 * takes what `<title>`, `<creator>`, `<album>` and `<duration>` leave out from the URI.
 */
function nameFromLocalFile(track: TrackInput, source: SourceTrack, localFile: Extract<formatKit.LocationKind, { readonly kind: 'local_file' }>, issues: Warnings): void {
  if (blank(source.title)) track.title = text(localFile.title, LIMITS.title, source.line, 'the title from the local-file URI', issues) ?? '';
  if (blank(source.creator)) track.artist = text(localFile.artist, LIMITS.title, source.line, 'the artist from the local-file URI', issues) ?? '';
  if (blank(source.album) && localFile.album !== '') track.album = text(localFile.album, LIMITS.text, source.line, 'the album from the local-file URI', issues);
  if (source.duration === null && localFile.seconds !== null) track.duration_s = localFile.seconds;
}

export function trackFromSource(source: SourceTrack, position: number, issues: Warnings): TrackInput {
  const line = source.line;
  warnNonUris(source.locations, 'location', line, issues);
  warnNonUris([source.image], 'image', line, issues);
  const track: TrackInput = {
    title: text(source.title, LIMITS.title, line, 'the track title', issues) ?? '',
    artist: text(source.creator, LIMITS.title, line, 'the track creator', issues) ?? '',
    album: text(source.album, LIMITS.text, line, 'the album', issues),
    artwork_uri: text(source.image, LIMITS.text, line, 'the track image', issues),
    track_number: source.trackNum,
    position,
  };
  if (source.duration !== null) {
    if (source.duration / 1_000 > LIMITS.maxDurationSeconds) issues.warn(line, 'invalid_value', `the duration ${source.duration} ms is longer than the model allows; it was left empty`);
    else track.duration_s = source.duration / 1_000;
  }
  if (source.extension !== null) {
    applyExtension(track, TRACK_FIELDS, source.extension, line, issues);
    return track;
  }
  const { fileName, remoteUrl, localFile } = guessFromLocations(track, source, issues);
  if (localFile !== null) nameFromLocalFile(track, source, localFile, issues);
  else if (fileName !== null) nameFromFile(track, source, fileName, issues);
  // An address that is not a song (a radio stream, a link to a playlist, one naming no artist and
  // title) is `unknown` media that is not migrated, with the SDK's reason, as in M3U, PLS and WPL.
  const reason = remoteUrl === null ? null : formatKit.remoteItemReason(remoteUrl, { artist: track.artist, title: track.title });
  if (reason !== null) Object.assign(track, { media_type: 'unknown', is_migratable: false, unsupported_reason: reason });
  return track;
}

/**
 * Tracks converted to the model one by one as a reader reads them (`XspfTrackStream`: a large
 * file's source tracks are then never all held at once), with the warnings their conversion
 * raised, held back until `playlistFromSource` reaches the tracks: issues come in the same order
 * as when the whole list is converted there.
 */
export class ConvertedTracks {
  readonly #tracks: TrackInput[] = [];
  readonly #warnings = new DeferredWarnings();

  add(source: SourceTrack): void {
    this.#tracks.push(trackFromSource(source, this.#tracks.length, this.#warnings));
  }

  /** The tracks, after replaying their conversion's warnings into `issues`. */
  replay(issues: Warnings): TrackInput[] {
    this.#warnings.replay(issues);
    return this.#tracks;
  }
}

export function playlistFromSource(source: SourcePlaylist, fallbackName: string, issues: formatKit.IssueCollector): PlaylistInput {
  const line = source.line;
  warnNonUris([source.image], 'playlist image', line, issues);
  const playlist: PlaylistInput = {
    name: text(source.title, LIMITS.name, line, 'the playlist title', issues) ?? fallbackName,
    owner_name: text(source.creator, LIMITS.text, line, 'the playlist creator', issues),
    description: text(source.annotation, LIMITS.text, line, 'the playlist annotation', issues),
    artwork_uri: text(source.image, LIMITS.text, line, 'the playlist image', issues),
    tracks: source.tracks instanceof ConvertedTracks ? source.tracks.replay(issues) : source.tracks.map((track, index) => trackFromSource(track, index, issues)),
  };
  if (source.date !== null) {
    const created = dateTime(source.date);
    if (created.problem === undefined) playlist.created_at = created.value;
    else issues.warn(line, 'invalid_value', `the playlist date ${shown(source.date)} has no time zone, which the model requires; it was left empty`);
  }
  if (source.extension !== null) {
    applyExtension(playlist, PLAYLIST_FIELDS, source.extension, line, issues);
    return playlist;
  }
  const providerUris: Record<string, string> = {};
  const metadata: Record<string, unknown> = {};
  if (source.identifier !== null) {
    const found = classifyLocation(source.identifier);
    if (found.kind === 'provider' && source.identifier.length <= LIMITS.providerUri) providerUris[found.provider] = found.uri;
    else metadata.identifier = source.identifier;
  }
  if (source.location !== null) metadata.location = source.location;
  if (source.info !== null) metadata.info = source.info;
  if (source.license !== null) metadata.license = source.license;
  playlist.provider_uris = providerUris;
  playlist.metadata = metadata;
  return playlist;
}
