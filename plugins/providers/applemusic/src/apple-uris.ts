/**
 * Apple Music identifiers as URIs. The engine's canonical form is `applemusic:<kind>:<id>`:
 * catalog resources have numeric ids (`song`, `music-video`, `album`, `artist`), catalog playlists
 * `pl.…`, and the user's library resources their own prefixed ids (`library-song` `i.…`,
 * `library-playlist` `p.…`). Links users paste (`https://music.apple.com/us/album/x/123?i=456`,
 * `…/song/x/456`, `…/playlist/x/pl.…`, `…/library/playlist/p.…`) are accepted and normalised.
 */

export type AppleKind = 'song' | 'music-video' | 'album' | 'artist' | 'playlist' | 'library-song' | 'library-playlist';

export interface AppleRef {
  readonly kind: AppleKind;
  readonly id: string;
}

const CATALOG_ID = /^\d{1,20}$/;
const PATTERNS: Record<AppleKind, RegExp> = {
  song: CATALOG_ID,
  'music-video': CATALOG_ID,
  album: CATALOG_ID,
  artist: CATALOG_ID,
  playlist: /^pl\.[A-Za-z0-9-]{1,64}$/,
  'library-song': /^i\.[A-Za-z0-9]{1,64}$/,
  'library-playlist': /^p\.[A-Za-z0-9]{1,64}$/,
};
const WEB_HOSTS = ['music.apple.com', 'geo.music.apple.com', 'itunes.apple.com'];

function ref(kind: string, id: string): AppleRef | null {
  if (!Object.hasOwn(PATTERNS, kind)) return null;
  return PATTERNS[kind as AppleKind].test(id) ? { kind: kind as AppleKind, id } : null;
}

export function appleUri(kind: AppleKind, id: string): string {
  return `applemusic:${kind}:${id}`;
}

/** Parses any accepted form; null when it is not an Apple Music link or URI. */
export function parseAppleUri(input: string): AppleRef | null {
  const text = input.trim();
  const canonical = /^applemusic:([a-z-]+):([^:/?#\s]+)$/.exec(text);
  if (canonical) return ref(canonical[1]!, canonical[2]!);
  // No URL class in the sandbox: a strict pattern instead of a parser.
  const web = /^https:\/\/([a-z.]+)(\/[^?#\s]*)(?:\?([^#\s]*))?(?:#\S*)?$/i.exec(text);
  if (!web || !WEB_HOSTS.includes(web[1]!.toLowerCase())) return null;
  const segments = web[2]!.split('/').filter(Boolean);
  const songParam = /(?:^|&)i=(\d{1,20})(?:&|$)/.exec(web[3] ?? '');
  // Storefront first (`/us/…`), as every current link has it.
  if (segments[0] && /^[a-z]{2}$/i.test(segments[0])) segments.shift();
  if (segments[0] === 'library' && segments[1] === 'playlist' && segments[2]) return ref('library-playlist', segments[2]);
  const kind = segments[0];
  const id = segments[segments.length - 1];
  if (!kind || !id || segments.length < 2) return null;
  if (kind === 'album') {
    // An album link with `?i=` points at one of its songs.
    if (songParam) return ref('song', songParam[1]!);
    return ref('album', id.replace(/^id/, ''));
  }
  if (kind === 'song' || kind === 'music-video' || kind === 'artist' || kind === 'playlist') return ref(kind, kind === 'playlist' ? id : id.replace(/^id/, ''));
  return null;
}

/** The API resource type a playlist-append request names for a URI (null: cannot be a playlist track). */
export function trackResourceType(kind: AppleKind): 'songs' | 'music-videos' | 'library-songs' | null {
  switch (kind) {
    case 'song':
      return 'songs';
    case 'music-video':
      return 'music-videos';
    case 'library-song':
      return 'library-songs';
    default:
      return null;
  }
}
