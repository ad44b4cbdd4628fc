/**
 * The one path segment of `GET /open-playlists/{id}` names either a user or a playlist (the Open
 * Playlist API gives both the same path shape). The scheme keeps them apart by form alone:
 *
 * - `me`, or the current owner's own id: the owner's playlists. A user id from the path is never
 *   trusted: the owner is resolved on the server, and any other user id is simply not found.
 * - `<provider>:<account id>:<playlist id>`: a playlist of one of the owner's connected accounts
 *   (`liked` is the liked-songs collection). The playlist id is everything after the second colon.
 * - `import:<import id>:<index>`: the 0-based index-th playlist of one of the owner's import records.
 *
 * Owner ids never contain a colon and provider keys are never `import`, so no value has two readings.
 */

export type OpenPlaylistRef =
  | { kind: 'owner' }
  | { kind: 'provider'; provider: string; accountId: string; playlistId: string }
  | { kind: 'import'; importId: string; index: number };

export const OWNER_ALIAS = 'me';
export const IMPORT_PREFIX = 'import';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PROVIDER_KEY = /^[a-z][a-z0-9_]{1,39}$/;
const MAX_PLAYLIST_ID = 500;

/** Reads a path segment; null when it is neither the owner nor a well-formed playlist reference. */
export function parseOpenPlaylistRef(raw: string, ownerId: string): OpenPlaylistRef | null {
  if (raw === OWNER_ALIAS || raw === ownerId) return { kind: 'owner' };
  const first = raw.indexOf(':');
  const second = first < 0 ? -1 : raw.indexOf(':', first + 1);
  if (second < 0) return null;
  const prefix = raw.slice(0, first);
  const middle = raw.slice(first + 1, second);
  const rest = raw.slice(second + 1);
  if (!UUID.test(middle)) return null;
  if (prefix === IMPORT_PREFIX) {
    if (!/^(0|[1-9]\d{0,5})$/.test(rest)) return null;
    return { kind: 'import', importId: middle.toLowerCase(), index: Number(rest) };
  }
  if (!PROVIDER_KEY.test(prefix) || rest === '' || rest.length > MAX_PLAYLIST_ID) return null;
  return { kind: 'provider', provider: prefix, accountId: middle.toLowerCase(), playlistId: rest };
}

export function providerPlaylistRef(provider: string, accountId: string, playlistId: string): string {
  return `${provider}:${accountId}:${playlistId}`;
}

export function importPlaylistRef(importId: string, index: number): string {
  return `${IMPORT_PREFIX}:${importId}:${index}`;
}
