import { songLinkService } from './song-links.ts';
import { providerOfUri } from './source-uri.ts';

/**
 * Playlist entry locations (M3U, PLS, WPL, XSPF), both ways. A location is data: it is never
 * opened or fetched, whatever it names.
 *
 * Reading (`classifyLocation`):
 * - `https://{open|play}.spotify.com/[intl-xx/][embed/]track/<id>` ⇒ `spotify:track:<id>`;
 *   `https://[www.|listen.]tidal.com/[browse/][album/<id>/]track/<id>[/u]` ⇒ `tidal:track:<id>`
 *   (TIDAL's "Copy link" adds `/u`; query strings and fragments ignored). Their links to what is
 *   not a song — Spotify `album`, `playlist`, `artist`, `show`, `episode`, `user`; TIDAL `album`,
 *   `playlist`, `artist`, `mix` — are those provider URIs too (`spotify:album:<id>`), so a reader
 *   says "album link" instead of searching for a song the entry does not name;
 * - a Spotify local-file URI (`spotify:local:<artist>:<album>:<title>:<seconds>`, form-encoded
 *   parts) is `local_file`: a file on the device that added it, named by the URI (decoded names,
 *   empty when absent), not a catalogue entry;
 * - `file:` URLs (percent-decoded), Windows drive paths (`C:\…`, `C:/…`), UNC paths (`\\server\…`)
 *   network-share URLs (`smb://`, `cifs://`, `nfs://`, `afp://`: a UNC path written as a URL,
 *   kept as written) and Android `content://` URIs (what Android players write for a song on the
 *   phone, kept as written) are local files, as is any text without a colon (an absolute or
 *   relative path);
 * - any other `scheme://` URL is a remote location (a stream, a web page, a file on a server);
 * - a provider URI written as the location names its provider: a provider-style URI (see
 *   `providerOfUri`) in the `<provider>:<type>:<id>` shape every provider uses (`spotify:track:…`,
 *   `deezer:track:1`, `applemusic:song:…`) that does not end like a media file name; its `item`
 *   says what it names, from its type: `episode`, a collection that is not a song (`album`,
 *   `playlist`, `artist`, `show`, `user`, …; `library-` prefixes ignored), else `track`
 *   (`track`, `song`, `video`, any type not known to name something else). `providerItemReason`
 *   says why an item that is not a track is not migrated;
 * - anything else (`urn:…`, `tag:…`, `C:file.mp3`, `intro:demo.mp3`) is `other`: each format
 *   decides (a line of an M3U names a path; an XSPF location is a URI).
 *
 * `file:` URLs: by RFC 8089 a `?` or `#` starts a query or a fragment, which are not part of the
 * path; XSPF and iTunes libraries escape them in file names (`%23`). Players writing M3U, PLS and
 * WPL lines do not (`file:///C:/Music/Track #1.mp3`), and a file URL has no use for a query or a
 * fragment there: with `{ fileUrls: 'as-written' }` they are part of the file name.
 *
 * Remote locations (`remoteItemReason`): a song page of another music service (`songLinkService`:
 * Deezer, YouTube, YouTube Music, Apple Music) is a song even when the entry names nothing else;
 * any other web address that is not a provider's track link is a song to search for only when the
 * entry names its artist and title and nothing marks it as a stream; see there.
 *
 * Writing: `webUrlOf` turns a Spotify or TIDAL track URI into its web URL (SPEC "Export formats",
 * rule 1), the form other players open.
 */

/** Provider URI types that name a collection (or a person), not a song: such a location is no track. */
export const PROVIDER_COLLECTIONS = ['album', 'playlist', 'artist', 'show', 'user', 'podcast', 'mix', 'station', 'radio', 'channel', 'genre', 'label'] as const;
export type ProviderCollection = (typeof PROVIDER_COLLECTIONS)[number];
/** What a provider URI names: a track (the default), an episode, or a collection. */
export type ProviderItem = 'track' | 'episode' | ProviderCollection;

export type LocationKind =
  | { readonly kind: 'provider'; readonly provider: string; readonly uri: string; readonly item: ProviderItem }
  /** A Spotify local-file URI: names and seconds decoded from it (empty / null when absent). Never opened. */
  | { readonly kind: 'local_file'; readonly provider: string; readonly uri: string; readonly artist: string; readonly album: string; readonly title: string; readonly seconds: number | null }
  | { readonly kind: 'remote'; readonly url: string }
  | { readonly kind: 'local'; readonly path: string }
  | { readonly kind: 'other'; readonly text: string };

export interface ClassifyOptions {
  /**
   * `uri` (the default): a `file:` URL's `?` and `#` end its path (RFC 8089). `as-written`: they
   * are part of the file name, as players write `file:` URLs into playlist lines.
   */
  readonly fileUrls?: 'uri' | 'as-written';
}

const SPOTIFY_WEB = /^https?:\/\/(?:open|play)\.spotify\.com\/(?:intl-[a-z]{2}(?:-[a-z]{2})?\/)?(?:embed\/)?(track|album|playlist|artist|show|episode)\/([A-Za-z0-9]{1,64})\/?(?:[?#].*)?$/is;
/** Spotify user ids are older usernames too: letters, digits, `.`, `_` and `-`. */
const SPOTIFY_USER_WEB = /^https?:\/\/(?:open|play)\.spotify\.com\/(?:intl-[a-z]{2}(?:-[a-z]{2})?\/)?user\/([A-Za-z0-9._-]{1,64})\/?(?:[?#].*)?$/is;
const TIDAL_WEB = /^https?:\/\/(?:www\.|listen\.)?tidal\.com\/(?:browse\/)?(?:album\/\d{1,20}\/)?(track|album|artist)\/(\d{1,20})(?:\/u)?\/?(?:[?#].*)?$/is;
/** TIDAL playlists are UUIDs, mixes hexadecimal ids. */
const TIDAL_LIST_WEB = /^https?:\/\/(?:www\.|listen\.)?tidal\.com\/(?:browse\/)?(playlist|mix)\/([0-9A-Fa-f-]{1,64})(?:\/u)?\/?(?:[?#].*)?$/is;
/** The model's longest duration (`duration_s`). */
const MAX_SECONDS = 1_000_000;
const SPOTIFY_LOCAL = /^spotify:local:([^:]*):([^:]*):([^:]*):(\d*)$/;
const SPOTIFY_TRACK = /^spotify:track:([A-Za-z0-9]{1,64})$/;
const TIDAL_TRACK = /^tidal:track:(\d{1,20})$/;
/** A scheme of two or more characters (one letter and a colon is a drive) followed by `//`, and the authority. */
const URL_WITH_AUTHORITY = /^[A-Za-z][A-Za-z0-9+.-]+:\/\/([^/?#]*)/;
const DRIVE_PATH = /^[A-Za-z]:[\\/]/;
/** File-sharing protocols: the listener's own files on a NAS or another computer, not web addresses. */
const NETWORK_SHARE = /^(?:smb|cifs|nfs|afp):\/\//i;
/**
 * Android content URIs: a song on the phone that wrote the list, reached through Android's media
 * store (`content://media/external/audio/media/1234`) or a document provider
 * (`content://com.android.externalstorage.documents/document/primary%3AMusic%2Fa.mp3`). Only
 * that phone can open one; it is no web address.
 */
const ANDROID_CONTENT = /^content:\/\//i;
/** `<provider>:<type>:<id>`, the shape of every provider's URIs. */
const PROVIDER_URI_SHAPE = /^[a-z][a-z0-9_]*:[a-z][a-z0-9-]*:\S+$/;
/** Audio and video file extensions: text ending in one names a file, not a provider's item. */
const MEDIA_FILE = /\.(?:mp3|mp2|m4a|m4b|m4p|aac|flac|alac|ogg|oga|opus|wav|wave|aif|aiff|aifc|wma|ape|wv|mpc|dsf|dff|mka|mp4|m4v|mkv|webm|avi|mov|wmv|mpg|mpeg|ts|cda|mid|midi)$/i;

// eslint-disable-next-line no-control-regex -- control characters are what is detected here
const CONTROL = /[\u0000-\u001f\u007f\u0085\u2028\u2029]/;

/** Percent-decoding that never throws: a malformed escape keeps the text as written. */
function percentDecoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * `file:///C:/a%20b.mp3` ⇒ `C:/a b.mp3`; `file://server/share/x` ⇒ `//server/share/x`; `file:///home/x` ⇒ `/home/x`.
 * A `?` or `#` ends the path unless `fileUrls` is `as-written` (see `ClassifyOptions`).
 */
export function fileUrlPath(url: string, options: ClassifyOptions = {}): string {
  const rest = url.slice(url.indexOf(':') + 1).replace(/^\/\/(?:localhost)?(?=\/)/i, '');
  const path = percentDecoded(options.fileUrls === 'as-written' ? rest : rest.replace(/[?#].*$/s, ''));
  return /^\/[A-Za-z]:[\\/]/.test(path) ? path.slice(1) : path;
}

/** One `+`/percent-encoded part of a Spotify local-file URI, trimmed; undecodable text is kept as it is. */
function localPart(part: string): string {
  return percentDecoded(part.replaceAll('+', ' ')).trim();
}

/** `spotify:local:<artist>:<album>:<title>:<seconds>`; a malformed one names nothing but is still a local file. */
function spotifyLocalFile(uri: string): LocationKind {
  const parts = SPOTIFY_LOCAL.exec(uri);
  const seconds = parts?.[4] ?? '';
  return {
    kind: 'local_file',
    provider: 'spotify',
    uri,
    artist: localPart(parts?.[1] ?? ''),
    album: localPart(parts?.[2] ?? ''),
    title: localPart(parts?.[3] ?? ''),
    seconds: /^\d{1,7}$/.test(seconds) ? Math.min(Number(seconds), MAX_SECONDS) : null,
  };
}

/** What a `<provider>:<type>:<id>` URI names, by its type (`library-album` is an album). */
export function providerItemOf(uri: string): ProviderItem {
  const type = (uri.split(':')[1] ?? '').toLowerCase().replace(/^library-/, '');
  if (type === 'episode') return 'episode';
  return (PROVIDER_COLLECTIONS as readonly string[]).includes(type) ? (type as ProviderCollection) : 'track';
}

/** The provider a location written as a provider URI names, or null. */
function providerOfLocation(location: string): string | null {
  if (!PROVIDER_URI_SHAPE.test(location) || MEDIA_FILE.test(location)) return null;
  return providerOfUri(location);
}

/** A Spotify or TIDAL web link as that provider's URI (`spotify:album:<id>`), or null. */
function providerWebLink(location: string): LocationKind | null {
  const spotify = SPOTIFY_WEB.exec(location) ?? SPOTIFY_USER_WEB.exec(location);
  if (spotify !== null) return providerLink('spotify', spotify[2] === undefined ? 'user' : spotify[1]!.toLowerCase(), spotify[2] ?? spotify[1]!);
  const tidal = TIDAL_WEB.exec(location) ?? TIDAL_LIST_WEB.exec(location);
  return tidal === null ? null : providerLink('tidal', tidal[1]!.toLowerCase(), tidal[2]!);
}

function providerLink(provider: string, type: string, id: string): LocationKind {
  const uri = `${provider}:${type}:${id}`;
  return { kind: 'provider', provider, uri, item: providerItemOf(uri) };
}

export function classifyLocation(location: string, options: ClassifyOptions = {}): LocationKind {
  const link = providerWebLink(location);
  if (link !== null) return link;
  if (location.startsWith('spotify:local:')) return spotifyLocalFile(location);
  if (/^file:/i.test(location)) return { kind: 'local', path: fileUrlPath(location, options) };
  if (DRIVE_PATH.test(location) || location.startsWith('\\\\') || NETWORK_SHARE.test(location) || ANDROID_CONTENT.test(location)) return { kind: 'local', path: location };
  if (URL_WITH_AUTHORITY.test(location)) return { kind: 'remote', url: location };
  const provider = providerOfLocation(location);
  if (provider !== null) return { kind: 'provider', provider, uri: location, item: providerItemOf(location) };
  return location.includes(':') ? { kind: 'other', text: location } : { kind: 'local', path: location };
}

/** Web URL of a Spotify or TIDAL track URI, or null for any other URI. */
export function webUrlOf(uri: string): string | null {
  const spotify = SPOTIFY_TRACK.exec(uri)?.[1];
  if (spotify !== undefined) return `https://open.spotify.com/track/${spotify}`;
  const tidal = TIDAL_TRACK.exec(uri)?.[1];
  return tidal === undefined ? null : `https://tidal.com/browse/track/${tidal}`;
}

/**
 * The last path segment without its extension (`C:\\Music\\Artist - Title.mp3` ⇒ `Artist - Title`),
 * trimmed. In a `scheme://` URL the query and fragment are not part of the path and the segment is
 * percent-decoded (`http://h/Daft%20Punk%20-%20Aerodynamic.mp3?x=1` ⇒ `Daft Punk - Aerodynamic`); a
 * URL without a path gives its host (`http://radio.example:8000/` ⇒ `radio.example:8000`); a
 * decoded segment holding a control character or line break is kept as written. In a
 * path, `#` and `?` are file name characters (`Track #1.mp3` ⇒ `Track #1`). A music service's song
 * page (`songLinkService`) gives `''`: its path is an id (`/track/3135556`, `/watch`), not a name.
 * An Android `content://` URI gives the file name inside its document id
 * (`…/document/primary%3AMusic%2FAir%2FSexy%20Boy.mp3` ⇒ `Sexy Boy`), and `''` for a media-store
 * number (`…/audio/media/1234`).
 */
export function fileStem(pathOrUrl: string): string {
  if (songLinkService(pathOrUrl) !== null) return '';
  const url = URL_WITH_AUTHORITY.exec(pathOrUrl);
  const path = (url === null ? pathOrUrl : pathOrUrl.slice(url[0].length).replace(/[?#].*$/s, '')).replace(/[\\/]+$/, '');
  if (url !== null && path === '') return (url[1] as string).replace(/^.*@/s, '').trim();
  const segment = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  const decoded = url === null ? segment : percentDecoded(segment);
  let base = CONTROL.test(decoded) ? segment : decoded;
  if (ANDROID_CONTENT.test(pathOrUrl)) {
    // A document id holds the whole escaped path (`primary:Music/Air/Sexy Boy.mp3`); a media-store
    // id is a number that names nothing.
    base = base.slice(Math.max(base.lastIndexOf('/'), base.lastIndexOf(':')) + 1);
    if (/^\d+$/.test(base)) return '';
  }
  const dot = base.lastIndexOf('.');
  return (dot > 0 ? base.slice(0, dot) : base).trim();
}

/** Why a provider URI that names no track is not migrated, as `providerItemReason` returns it. */
export const PROVIDER_ITEM_REASONS: Readonly<Record<Exclude<ProviderItem, 'track'>, string>> = {
  episode: 'podcast episode: only music tracks are migrated',
  album: 'album link: the location names an album, not a song',
  playlist: 'playlist link: the location names another playlist, not a song',
  artist: 'artist link: the location names an artist, not a song',
  show: 'show link: the location names a podcast or show, not a song',
  user: 'user link: the location names a user profile, not a song',
  podcast: 'podcast link: the location names a podcast, not a song',
  mix: 'mix link: the location names a mix (a playlist), not a song',
  station: 'station link: the location names a radio station, not a song',
  radio: 'radio link: the location names a radio station, not a song',
  channel: 'channel link: the location names a channel, not a song',
  genre: 'genre link: the location names a genre, not a song',
  label: 'label link: the location names a record label, not a song',
};

/**
 * Why an entry whose location is a provider URI is not migrated, or null for a track. Readers
 * then read an `episode` as `media_type: episode` (its URI kept in `provider_uris`), and any
 * other item (a collection) as `media_type: unknown` whose URI is kept as `metadata.location`,
 * not as a provider URI of a track; neither is migratable.
 */
export function providerItemReason(item: ProviderItem): string | null {
  return item === 'track' ? null : PROVIDER_ITEM_REASONS[item];
}

/** A remote location's reason not to be a song, as `remoteItemReason` returns it. */
export const REMOTE_ITEM_REASONS = {
  stream: 'internet stream: a radio or stream address, not a song',
  playlist: 'playlist link: the address names another playlist or a stream, not a song',
  unnamed: 'web address: the entry names no artist and title, so there is no song to search for',
} as const;

/** Streaming protocols: whatever the entry says, these name a stream. */
const STREAM_SCHEME = /^(?:rtsp|rtsps|rtmp|rtmps|rtmpt|rtmpe|mms|mmsh|mmst|icy|icyx|udp|rtp|srt):/i;
/** Playlist and stream descriptor files (`.m3u8` is also HLS): a link to one names no song. */
const PLAYLIST_FILE = /\.(?:m3u|m3u8|pls|asx|wax|wvx|wpl|xspf|ram|smi|smil|qtl)$/i;

export interface RemoteEntry {
  readonly artist: string;
  readonly title: string;
  /** The entry says its length is unknown (`#EXTINF:-1`, `LengthN=-1`): what players write for streams. */
  readonly lengthUnknown?: boolean;
}

/**
 * Whether an entry at a remote location (a `remote` `LocationKind`: not a provider's track link)
 * is a song to migrate: null when it is, else why not (one of `REMOTE_ITEM_REASONS`).
 * 1. a streaming protocol (`rtsp:`, `mms:`, `rtmp:`, `icy:`, …) ⇒ `stream`;
 * 2. a song page of a music service (`songLinkService`: `https://www.deezer.com/track/3135556`,
 *    `https://music.youtube.com/watch?v=…`) is a song, named or not, whatever length the entry
 *    gives (tools that write such lists put `-1` when they do not know it): a migration to that
 *    service takes the link itself, and one to another service searches by the entry's names,
 *    or says there are none;
 * 3. a length given as unknown (`#EXTINF:-1`, `LengthN=-1`) ⇒ `stream`;
 * 4. a link to a playlist or stream descriptor (`.m3u`, `.m3u8`, `.pls`, `.asx`, `.xspf`, …) ⇒ `playlist`;
 * 5. any other address is a remote copy of a song only when the entry names both its artist and
 *    its title (from the entry's text or the URL's file name), what a migration searches for;
 *    else ⇒ `unnamed` (`http://radio.example:8000/live`, `#EXTINF:215,One More Time`).
 * The formats then read the entry as `media_type: unknown`, `is_migratable: false`, with the reason.
 */
export function remoteItemReason(url: string, entry: RemoteEntry): string | null {
  if (STREAM_SCHEME.test(url)) return REMOTE_ITEM_REASONS.stream;
  if (songLinkService(url) !== null) return null;
  if (entry.lengthUnknown === true) return REMOTE_ITEM_REASONS.stream;
  const authority = URL_WITH_AUTHORITY.exec(url)?.[0].length ?? 0;
  if (PLAYLIST_FILE.test(url.slice(authority).replace(/[?#].*$/s, '').replace(/\/+$/, ''))) return REMOTE_ITEM_REASONS.playlist;
  if (entry.artist.trim() === '' || entry.title.trim() === '') return REMOTE_ITEM_REASONS.unnamed;
  return null;
}
