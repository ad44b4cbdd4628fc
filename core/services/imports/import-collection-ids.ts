/**
 * The collection ids of an import record's playlists: what `POST /api/migrations`, `POST
 * /api/exports`, shares and the UI name each playlist of the record by (`GET /api/imports/{id}`
 * answers with them as `collection_ids`). This is the one place the rule is written down.
 *
 * A playlist's own id alone is not enough: a file may hold the same playlist twice (a CSV with a
 * whole and a partial export of it), and a real id may equal another, id-less playlist's index
 * ("0"). Naming by "own id, else index" then gave two playlists one name and one of them could
 * never be chosen. So every playlist of a record gets a unique id, deterministically from the
 * record alone (a migration job reads the record again and must find the same playlists):
 *
 * 1. In order, each playlist whose own id is not taken yet keeps it. Every id that is unique in the
 *    record stays as it is (a selection naming it names the same playlist as before), and of two
 *    playlists sharing an id the first keeps it.
 * 2. Each remaining playlist — one without an id, or a later one with an id an earlier playlist has
 *    — is named by its 0-based index: `"<index>"` without an id, `"<id>#<index>"` with one (the
 *    id stays recognisable). Should that be taken too (a real id can look like anything), `#2`,
 *    `#3`, … is appended until it is free.
 *
 * An own id a selection could not name (empty, with leading or trailing spaces, which selections
 * trim, or longer than MAX_COLLECTION_ID_LENGTH) counts as no id: the playlist is named by its index.
 */

/** The longest id a selection takes (`POST /api/migrations`, `POST /api/exports`, shares). */
export const MAX_COLLECTION_ID_LENGTH = 500;

/** The playlist's own id when a selection can name it by that (with room for a `#<index>` suffix). */
function nameableId(id: string | null): string | null {
  if (id === null || id === '' || id.trim() !== id || id.length > MAX_COLLECTION_ID_LENGTH - 20) return null;
  return id;
}

export function importCollectionIds(playlists: readonly { readonly id: string | null }[]): string[] {
  const ids: (string | undefined)[] = playlists.map(() => undefined);
  const taken = new Set<string>();
  for (const [index, playlist] of playlists.entries()) {
    const own = nameableId(playlist.id);
    if (own !== null && !taken.has(own)) {
      taken.add(own);
      ids[index] = own;
    }
  }
  for (const [index, playlist] of playlists.entries()) {
    if (ids[index] !== undefined) continue;
    const own = nameableId(playlist.id);
    const base = own === null ? String(index) : `${own}#${index}`;
    let candidate = base;
    for (let suffix = 2; taken.has(candidate); suffix += 1) candidate = `${base}#${suffix}`;
    taken.add(candidate);
    ids[index] = candidate;
  }
  return ids as string[];
}
