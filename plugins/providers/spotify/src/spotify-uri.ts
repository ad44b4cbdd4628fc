/**
 * Spotify identifiers: `spotify:<type>:<base62 id>` URIs (and the legacy
 * `spotify:user:<user>:playlist:<id>` form), `open.spotify.com` links (with or without an
 * `intl-xx` segment, `embed/` prefix or query), and local-file URIs, which name a file on the
 * owner's device rather than anything in the catalogue.
 */

export type SpotifyEntity = 'track' | 'episode' | 'album' | 'artist' | 'playlist' | 'show' | 'user';

export interface SpotifyRef {
  readonly entity: SpotifyEntity;
  readonly id: string;
  /** `spotify:<entity>:<id>`. */
  readonly uri: string;
}

const BASE62_ID = /^[0-9A-Za-z]{22}$/;
const ENTITIES: readonly SpotifyEntity[] = ['track', 'episode', 'album', 'artist', 'playlist', 'show', 'user'];
const OPEN_HOSTS = new Set(['open.spotify.com', 'play.spotify.com']);
/** `http(s)://<host><path>?<query>#<fragment>`: host and path captured, query and fragment ignored. */
const WEB_LINK = /^https?:\/\/([A-Za-z0-9.-]+)(\/[^?#\s]*)?(?:\?[^#\s]*)?(?:#\S*)?$/i;

function isEntity(value: string): value is SpotifyEntity {
  return (ENTITIES as readonly string[]).includes(value);
}

function ref(entity: SpotifyEntity, id: string): SpotifyRef | null {
  // User ids are free-form usernames; every other id is 22 base62 characters.
  if (entity === 'user' ? !/^[0-9A-Za-z._-]{1,64}$/.test(id) : !BASE62_ID.test(id)) return null;
  return { entity, id, uri: `spotify:${entity}:${id}` };
}

export function isLocalFileUri(value: string): boolean {
  return value.startsWith('spotify:local:');
}

/** Parses a Spotify URI or open.spotify.com link; null for anything else (local files included). */
export function parseSpotifyRef(value: string): SpotifyRef | null {
  const input = value.trim();
  if (input.startsWith('spotify:')) {
    const parts = input.split(':');
    if (parts.length === 3 && isEntity(parts[1]!)) return ref(parts[1], parts[2]!);
    // Legacy playlist URIs carried the owner: spotify:user:<owner>:playlist:<id>.
    if (parts.length === 5 && parts[1] === 'user' && parts[3] === 'playlist') return ref('playlist', parts[4]!);
    return null;
  }
  // Read with a pattern, not `new URL`: the sandbox's isolate has no URL global (the other
  // provider plugins read links the same way). The authority is the bare host: no userinfo, no port.
  const link = WEB_LINK.exec(input);
  if (!link || !OPEN_HOSTS.has(link[1]!.toLowerCase())) return null;
  const segments = (link[2] ?? '').split('/').filter(Boolean);
  if (segments[0] && /^intl-[a-z]{2}(?:-[a-z]{2})?$/i.test(segments[0])) segments.shift();
  if (segments[0] === 'embed') segments.shift();
  if (segments.length === 4 && segments[0] === 'user' && segments[2] === 'playlist') return ref('playlist', segments[3]!);
  if (segments.length !== 2 || !isEntity(segments[0]!)) return null;
  return ref(segments[0], segments[1]!);
}

/** The id of a playlist given as a bare id, a URI or a link. */
export function playlistIdOf(value: string): string | null {
  if (BASE62_ID.test(value)) return value;
  const parsed = parseSpotifyRef(value);
  return parsed?.entity === 'playlist' ? parsed.id : null;
}
