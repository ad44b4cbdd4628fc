/**
 * TIDAL identifiers as URIs: the engine's canonical form is `tidal:<entity>:<id>`; links users
 * paste (`https://tidal.com/browse/track/…`, `https://listen.tidal.com/album/…/track/…`,
 * `tidal://track/…`) are accepted and normalised. Tracks, videos, albums and artists have numeric
 * ids; playlists have UUIDs.
 */

export type TidalEntity = 'track' | 'video' | 'album' | 'artist' | 'playlist';

export interface TidalRef {
  readonly entity: TidalEntity;
  readonly id: string;
}

const ENTITIES: readonly TidalEntity[] = ['track', 'video', 'album', 'artist', 'playlist'];
const NUMERIC_ID = /^\d{1,20}$/;
const PLAYLIST_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const WEB_HOSTS = ['tidal.com', 'www.tidal.com', 'listen.tidal.com'];

function ref(entity: string, id: string): TidalRef | null {
  if (!(ENTITIES as readonly string[]).includes(entity)) return null;
  const valid = entity === 'playlist' ? PLAYLIST_ID.test(id) : NUMERIC_ID.test(id);
  return valid ? { entity: entity as TidalEntity, id: entity === 'playlist' ? id.toLowerCase() : id } : null;
}

export function tidalUri(entity: TidalEntity, id: string): string {
  return `tidal:${entity}:${id}`;
}

export function tidalWebUrl(entity: TidalEntity, id: string): string {
  return `https://tidal.com/browse/${entity}/${id}`;
}

/** Parses any accepted form; null when it is not a TIDAL link or URI. */
export function parseTidalUri(input: string): TidalRef | null {
  const text = input.trim();
  const canonical = /^tidal:([a-z]+):([^:/?#\s]+)$/.exec(text);
  if (canonical) return ref(canonical[1]!, canonical[2]!);
  const app = /^tidal:\/\/([a-z]+)\/([^/?#\s]+)\/?$/.exec(text);
  if (app) return ref(app[1]!, app[2]!);
  // No URL class in the sandbox: a strict pattern instead of a parser.
  const web = /^https?:\/\/([a-z.]+)(\/[^?#\s]*)(?:[?#]\S*)?$/i.exec(text);
  if (!web || !WEB_HOSTS.includes(web[1]!.toLowerCase())) return null;
  const segments = web[2]!.split('/').filter(Boolean);
  if (segments[0] === 'browse') segments.shift();
  // The last entity/id pair wins: `/album/1/track/2` is the track.
  for (let index = segments.length - 2; index >= 0; index--) {
    const found = ref(segments[index]!, segments[index + 1]!);
    if (found) return found;
  }
  return null;
}
