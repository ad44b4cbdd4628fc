/**
 * Deezer identifiers: our `deezer:<entity>:<id>` URIs (the `provider_uris.deezer` values) and
 * `www.deezer.com` links, with or without a language segment (`/en/playlist/123`) or query.
 * Ids are positive integers. Short links (`deezer.page.link`, `link.deezer.com`) need a redirect
 * the plugin cannot follow, so they are not recognised.
 */

export type DeezerEntity = 'track' | 'album' | 'artist' | 'playlist';

export interface DeezerRef {
  readonly entity: DeezerEntity;
  readonly id: string;
  /** `deezer:<entity>:<id>`. */
  readonly uri: string;
}

const ENTITIES: readonly DeezerEntity[] = ['track', 'album', 'artist', 'playlist'];
const WEB_HOSTS = new Set(['www.deezer.com', 'deezer.com']);
const ID = /^[1-9]\d{0,19}$/;

function isEntity(value: string): value is DeezerEntity {
  return (ENTITIES as readonly string[]).includes(value);
}

export function deezerUri(entity: DeezerEntity, id: string): string {
  return `deezer:${entity}:${id}`;
}

function ref(entity: DeezerEntity, id: string): DeezerRef | null {
  return ID.test(id) ? { entity, id, uri: deezerUri(entity, id) } : null;
}

/** Parses a `deezer:` URI or a deezer.com link; null for anything else. */
export function parseDeezerRef(value: string): DeezerRef | null {
  const input = value.trim();
  if (input.startsWith('deezer:')) {
    const parts = input.split(':');
    return parts.length === 3 && isEntity(parts[1]!) ? ref(parts[1], parts[2]!) : null;
  }
  // Parsed by hand (the sandbox has no `URL` global): scheme, host without userinfo or port, path.
  const link = /^https?:\/\/([^/?#]+)(\/[^?#]*)?(?:[?#].*)?$/i.exec(input);
  if (!link || !WEB_HOSTS.has(link[1]!.toLowerCase())) return null;
  const segments = (link[2] ?? '').split('/').filter(Boolean);
  // A language (`en`, `fr`) or country-language (`en-gb`) segment may come first.
  if (segments[0] && /^[a-z]{2}(?:-[a-z]{2})?$/i.test(segments[0])) segments.shift();
  if (segments.length !== 2 || !isEntity(segments[0]!)) return null;
  return ref(segments[0], segments[1]!);
}

/** The id of an entity given as a bare id, a URI or a link. */
export function idFor(entity: DeezerEntity, value: string): string | null {
  const trimmed = value.trim();
  if (ID.test(trimmed)) return trimmed;
  const parsed = parseDeezerRef(trimmed);
  return parsed?.entity === entity ? parsed.id : null;
}
