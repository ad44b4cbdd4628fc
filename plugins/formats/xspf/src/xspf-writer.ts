import { escapeXmlText, formatKit, InvalidInput, type Playlist, type PlaylistWriter, type Track } from '@opl/plugin-sdk';
import { fieldXml, PLAYLIST_FIELDS, TRACK_FIELDS } from './extension-fields.ts';
import { locationUri } from './location-uri.ts';
import { imageReadsBack, imageUri, textReadsBack } from './text-layout.ts';
import { uriReferenceProblem } from './uri-reference.ts';
import { XML_LIMITS } from './xml-limits.ts';
import { OPL_NAMESPACE, XSPF_NAMESPACE } from './xspf-names.ts';

/**
 * XSPF v1 output (SPEC "Export formats", rules 1 and 3): XML 1.0, UTF-8, no BOM, LF line ends,
 * two-space indentation, elements in the order of the XSPF specification.
 *
 * One playlist per document: XSPF's root is a single `<playlist>`, and documents concatenated
 * would not be XML. Several playlists are refused with `InvalidInput` — the export writes one file
 * per playlist (a ZIP archive for several), never a truncated file that silently drops playlists.
 *
 * Track: `<location>` = the web URL of each Spotify/TIDAL track URI (preferred source provider
 * first), other http(s) provider URIs as they are, then the locations the track was imported
 * with (`metadata.location(s)`, else a CSV/TXT import's `metadata.source_uri`), file paths as `file:` or relative URIs (XSPF wants a URI);
 * `<identifier>` = each provider URI (the original stays there and in the extension), then the
 * other identifiers an XSPF import kept (`metadata.identifiers`); `<title>`, `<creator>` (artist),
 * `<annotation>` and `<info>` (kept in `metadata` by an XSPF import), `<image>`, `<album>`,
 * `<trackNum>` (when ≥ 1), `<duration>` in milliseconds; then the Open Playlist extension with
 * everything else (see extension-fields.ts). Playlist: `<title>`, `<creator>` (owner name),
 * `<annotation>` (description), `<info>`, `<location>`, `<identifier>` (else the one an XSPF import
 * kept), `<image>` (artwork), `<date>` (created), `<license>`, the extension, `<trackList>`.
 *
 * No element gets a text longer than the reader accepts (xml-limits.ts): a longer extension field
 * is written in `<opl:part>` pieces, a `created_at` too long for `<date>` goes to the extension,
 * and a `<location>` that long is left out (the extension's metadata keeps it).
 */

const EXTENSION_OPEN = `<extension application="${OPL_NAMESPACE}">`;

export interface WriterOptions {
  /** Provider whose URI comes first among the locations and identifiers. */
  readonly sourceProvider: string | null;
}

function element(indent: string, name: string, value: string | null): string {
  return value === null ? '' : `${indent}<${name}>${escapeXmlText(value)}</${name}>\n`;
}

/**
 * The locations a track was imported with (`metadata.location(s)`; for a track without them and
 * without a provider URI, the source reference of a CSV or TXT import, `metadata.source_uri`) as URIs (see location-uri.ts:
 * an M3U's `C:\Music\a.mp3` is `file:///C:/Music/a.mp3` here). The original text stays in the
 * extension's `metadata`, which our reader restores instead of reading `<location>`. A URI longer
 * than a text our reader accepts is left out: it would make the whole document unreadable (no
 * real path comes near; only an absurd one, percent-encoded, can).
 */
function importedLocations(metadata: Readonly<Record<string, unknown>>, hasProvider: boolean): string[] {
  // A CSV or TXT import keeps its web address, stream or path as `metadata.source_uri`: the location when there is no other.
  const fallback = hasProvider || metadata.location !== undefined || metadata.locations !== undefined ? [] : [metadata.source_uri];
  const list: unknown[] = Array.isArray(metadata.locations) ? metadata.locations : metadata.location !== undefined ? [metadata.location] : fallback;
  return list
    .filter((value): value is string => typeof value === 'string' && value !== '')
    .map(locationUri)
    // A URI with a scheme that escaping cannot mend (a `[` outside an IPv6 host) is left to the extension too.
    .filter((uri) => uri.length <= XML_LIMITS.maxTextLength && uriReferenceProblem(uri) === null);
}

/**
 * What our reader keeps in `metadata` from the standard elements of another program's XSPF (an
 * `annotation`, `info`, a playlist's `location`, `license`, `identifier`): written back as those
 * elements, so that other software reading our export finds them where it wrote them. Only text
 * the reader would accept again.
 */
function metadataText(metadata: Readonly<Record<string, unknown>>, key: string): string | null {
  const value = metadata[key];
  return typeof value === 'string' && value.trim() !== '' && value.length <= XML_LIMITS.maxTextLength ? value : null;
}

/**
 * A URI our reader (and XSPF) accepts in a URI-typed element (`<identifier>`, `<info>`, a
 * playlist's `<location>`, `<license>`; uri-reference.ts), or null: text that is no URI is left
 * out there — the reader would refuse the document — and stays in the extension (`metadata`,
 * `provider_uris`), which our reader restores exactly.
 */
function asUri(value: string | null | undefined): string | null {
  return value === null || value === undefined || uriReferenceProblem(value.trim()) !== null ? null : value;
}

/** `metadata.identifiers` (a track's `<identifier>`s that name no provider's track: MusicBrainz, ISRC…), as `metadataText` keeps one, URIs only. */
function metadataTexts(metadata: Readonly<Record<string, unknown>>, key: string): string[] {
  const value = metadata[key];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string' && item.trim() !== '' && item.length <= XML_LIMITS.maxTextLength && asUri(item) !== null) : [];
}

function extension(fields: typeof TRACK_FIELDS, model: Readonly<Record<string, unknown>>, indent: string, skip: ReadonlySet<string>): string {
  const body = fields
    .filter((spec) => !skip.has(spec.field))
    .map((spec) => fieldXml(spec, model[spec.field], `${indent}  `))
    .join('');
  return body === '' ? '' : `${indent}${EXTENSION_OPEN}\n${body}${indent}</extension>\n`;
}

/** Fields the standard elements carry exactly for this track (so the extension leaves them out). */
function standardTrackFields(track: Track): Set<string> {
  const carried = new Set<string>();
  if (textReadsBack(track.title)) carried.add('title');
  if (textReadsBack(track.artist)) carried.add('artist');
  if (textReadsBack(track.album)) carried.add('album');
  if (imageReadsBack(track.artwork_uri)) carried.add('artwork_uri');
  // Exactly: the reader divides the milliseconds by 1,000 (398955.19299999997 × 1,000 rounds to a whole 398955193, which reads back as 398955.193).
  if (track.duration_s === null || Math.round(track.duration_s * 1_000) / 1_000 === track.duration_s) carried.add('duration_s');
  if (track.track_number === null || track.track_number >= 1) carried.add('track_number');
  return carried;
}

/** Fields the standard elements carry exactly for this playlist (so the extension leaves them out). */
function standardPlaylistFields(playlist: Playlist, dateFits: boolean): Set<string> {
  const carried = new Set<string>();
  if (dateFits) carried.add('created_at');
  if (textReadsBack(playlist.name)) carried.add('name');
  if (textReadsBack(playlist.owner_name)) carried.add('owner_name');
  if (textReadsBack(playlist.description)) carried.add('description');
  if (imageReadsBack(playlist.artwork_uri)) carried.add('artwork_uri');
  return carried;
}

/** A location a player can open for a provider URI: the web URL of a Spotify/TIDAL track, or an http(s) URI as is. */
function playableUrl(uri: string): string | null {
  return formatKit.webUrlOf(uri) ?? (/^https?:\/\/\S+$/i.test(uri) && uriReferenceProblem(uri) === null ? uri : null);
}

export function trackXml(track: Track, options: WriterOptions): string {
  const indent = '      ';
  const providers = formatKit.orderedProviders(track.provider_uris, options.sourceProvider);
  const uris = providers.map((key) => track.provider_uris[key]!).filter((uri) => uri !== '');
  const locations = [...new Set([...uris.map(playableUrl).filter((url): url is string => url !== null), ...importedLocations(track.metadata, uris.length > 0)])];
  const identifiers = [...new Set([...uris.filter((uri) => asUri(uri) !== null), ...metadataTexts(track.metadata, 'identifiers')])];
  const milliseconds = track.duration_s === null ? null : Math.round(track.duration_s * 1_000);
  return (
    '    <track>\n' +
    locations.map((location) => element(indent, 'location', location)).join('') +
    identifiers.map((uri) => element(indent, 'identifier', uri)).join('') +
    element(indent, 'title', track.title) +
    element(indent, 'creator', track.artist === '' ? null : track.artist) +
    element(indent, 'annotation', metadataText(track.metadata, 'annotation')) +
    element(indent, 'info', asUri(metadataText(track.metadata, 'info'))) +
    element(indent, 'image', imageUri(track.artwork_uri)) +
    element(indent, 'album', track.album) +
    element(indent, 'trackNum', track.track_number !== null && track.track_number >= 1 ? String(track.track_number) : null) +
    element(indent, 'duration', milliseconds === null ? null : String(milliseconds)) +
    extension(TRACK_FIELDS, track, indent, standardTrackFields(track)) +
    '    </track>\n'
  );
}

/** The document up to its track list: the declaration, the root, the playlist's elements and extension. */
function* documentHead(playlist: Playlist, options: WriterOptions): Generator<string> {
  const indent = '  ';
  // XSPF allows one playlist identifier: the preferred provider's URI (the extension keeps them all).
  const identifier = formatKit.orderedProviders(playlist.provider_uris, options.sourceProvider)
    .map((key) => playlist.provider_uris[key]!)
    .find((uri) => uri !== '' && asUri(uri) !== null);
  // A date-time may have any number of fractional digits: one longer than a text the reader accepts goes to the extension, in parts.
  const dateFits = playlist.created_at === null || playlist.created_at.length <= XML_LIMITS.maxTextLength;
  yield '<?xml version="1.0" encoding="UTF-8"?>\n';
  yield `<playlist version="1" xmlns="${XSPF_NAMESPACE}" xmlns:opl="${OPL_NAMESPACE}">\n`;
  yield element(indent, 'title', playlist.name) +
    element(indent, 'creator', playlist.owner_name) +
    element(indent, 'annotation', playlist.description) +
    element(indent, 'info', asUri(metadataText(playlist.metadata, 'info'))) +
    element(indent, 'location', asUri(metadataText(playlist.metadata, 'location'))) +
    element(indent, 'identifier', identifier ?? asUri(metadataText(playlist.metadata, 'identifier'))) +
    element(indent, 'image', imageUri(playlist.artwork_uri)) +
    element(indent, 'date', dateFits ? playlist.created_at : null) +
    element(indent, 'license', asUri(metadataText(playlist.metadata, 'license'))) +
    extension(PLAYLIST_FIELDS, playlist, indent, standardPlaylistFields(playlist, dateFits));
}

/**
 * The track list, its tracks given in as many slices as the caller likes: `<trackList>` opens
 * with the first track, and a playlist without one gets `<trackList/>`.
 */
class TrackList {
  readonly #options: WriterOptions;
  #open = false;

  constructor(options: WriterOptions) {
    this.#options = options;
  }

  *tracks(tracks: Iterable<Track>): Generator<string> {
    for (const track of tracks) {
      if (!this.#open) {
        this.#open = true;
        yield '  <trackList>\n';
      }
      yield trackXml(track, this.#options);
    }
  }

  *end(): Generator<string> {
    yield this.#open ? '  </trackList>\n</playlist>\n' : '  <trackList/>\n</playlist>\n';
  }
}

export function* xspfPieces(playlist: Playlist, options: WriterOptions): Generator<string> {
  yield* documentHead(playlist, options);
  const list = new TrackList(options);
  yield* list.tracks(playlist.tracks);
  yield* list.end();
}

/** One playlist's document written slice by slice (`serializePlaylist`): the bytes `xspfPieces` makes of it. */
export function xspfPlaylistWriter(playlist: Playlist, options: WriterOptions): PlaylistWriter {
  const list = new TrackList(options);
  return formatKit.chunkedWriter({ begin: () => documentHead(playlist, options), write: (tracks) => list.tracks(tracks), end: () => list.end() });
}

export function onePlaylist(playlists: readonly Playlist[]): Playlist {
  if (playlists.length !== 1) {
    throw new InvalidInput(`an XSPF document holds exactly one playlist, and ${playlists.length} were given; export them one file each (several playlists are exported as an archive with one .xspf per playlist)`);
  }
  return playlists[0]!;
}
