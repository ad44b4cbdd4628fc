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

/** A reading of a path segment: the reference, or what keeps it from being one (a sentence fragment). */
export type OpenPlaylistRefReading = { ref: OpenPlaylistRef } | { ref: null; problem: string };

export const OWNER_ALIAS = 'me';
export const IMPORT_PREFIX = 'import';
export const REF_FORMS = '<provider>:<account id>:<playlist id> or import:<import id>:<index>';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PROVIDER_KEY = /^[a-z][a-z0-9_]{1,39}$/;
const INDEX = /^(0|[1-9]\d{0,5})$/;
const MAX_PLAYLIST_ID = 500;

/** A part of the segment quoted in a message, cut short. */
function quoted(part: string): string {
  return JSON.stringify(part.length > 60 ? `${part.slice(0, 60)}…` : part);
}

/** Reads a path segment: the owner, a playlist reference, or the one thing that is wrong with it. */
export function readOpenPlaylistRef(raw: string, ownerId: string): OpenPlaylistRefReading {
  if (raw === OWNER_ALIAS || raw === ownerId) return { ref: { kind: 'owner' } };
  const first = raw.indexOf(':');
  if (first < 0) {
    return { ref: null, problem: `is not this owner (use \`${OWNER_ALIAS}\`; the owner is resolved on the server, and no other user can be read) and not a playlist reference (${REF_FORMS})` };
  }
  const second = raw.indexOf(':', first + 1);
  if (second < 0) return { ref: null, problem: `has two parts; a playlist reference has three: ${REF_FORMS}` };
  const prefix = raw.slice(0, first);
  const middle = raw.slice(first + 1, second);
  const rest = raw.slice(second + 1);
  if (prefix === IMPORT_PREFIX) {
    if (!UUID.test(middle)) return { ref: null, problem: `names the import ${quoted(middle)}, which is not an import id (import ids are UUIDs), so there is no such import` };
    if (!INDEX.test(rest)) return { ref: null, problem: `names the playlist at ${quoted(rest)} of import ${middle.toLowerCase()}; the index must be a whole number from 0, without leading zeros` };
    return { ref: { kind: 'import', importId: middle.toLowerCase(), index: Number(rest) } };
  }
  if (!PROVIDER_KEY.test(prefix)) {
    return { ref: null, problem: `starts with ${quoted(prefix)}, which is not a provider key (2 to 40 lowercase letters, digits or _, starting with a letter, e.g. spotify) nor \`${IMPORT_PREFIX}\`` };
  }
  if (!UUID.test(middle)) {
    return { ref: null, problem: `names the ${prefix} account ${quoted(middle)}, which is not an account id (account ids are UUIDs, as GET /api/auth/accounts lists them), so there is no such account` };
  }
  if (rest === '') return { ref: null, problem: 'has an empty playlist id after the second colon' };
  if (rest.length > MAX_PLAYLIST_ID) return { ref: null, problem: `has a playlist id of ${rest.length} characters; playlist ids have at most ${MAX_PLAYLIST_ID}` };
  return { ref: { kind: 'provider', provider: prefix, accountId: middle.toLowerCase(), playlistId: rest } };
}

/** Reads a path segment; null when it is neither the owner nor a well-formed playlist reference. */
export function parseOpenPlaylistRef(raw: string, ownerId: string): OpenPlaylistRef | null {
  return readOpenPlaylistRef(raw, ownerId).ref;
}

export function providerPlaylistRef(provider: string, accountId: string, playlistId: string): string {
  return `${provider}:${accountId}:${playlistId}`;
}

export function importPlaylistRef(importId: string, index: number): string {
  return `${IMPORT_PREFIX}:${importId}:${index}`;
}
