import { isRecord } from './answer-parsing.ts';

/**
 * `GET /api/library/albums|artists` (a connected account's saved albums and followed artists, a
 * page at a time) and `GET /api/imports` (the imports a migration can start from), parsed into
 * camelCase. Pure: no I/O.
 */

export type LibraryKind = 'albums' | 'artists';

export const LIBRARY_PATH = '/api/library';
export const IMPORTS_LIST_PATH = '/api/imports';
/** Entries per page the wizard asks for. */
export const LIBRARY_PAGE = 50;

export function libraryPath(kind: LibraryKind, accountId: string, cursor: string | null = null, limit = LIBRARY_PAGE): string {
  const query = new URLSearchParams({ account_id: accountId, limit: String(limit) });
  if (cursor) query.set('cursor', cursor);
  return `${LIBRARY_PATH}/${kind}?${query.toString()}`;
}

export interface LibraryEntry {
  /** What a migration's selection names it by. */
  readonly id: string;
  /** Album title or artist name. */
  readonly name: string;
  /** Albums: their artists and year. */
  readonly detail: string | null;
}

export interface LibraryPage {
  readonly entries: readonly LibraryEntry[];
  readonly nextCursor: string | null;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

export function parseLibraryPage(kind: LibraryKind, body: unknown): LibraryPage | undefined {
  if (!isRecord(body) || !Array.isArray(body['items'])) return undefined;
  const entries = body['items'].filter(isRecord).flatMap((item): LibraryEntry[] => {
    // An entry the service gives no id cannot be selected (the job could not find it again).
    const id = text(item['id']) ?? text(item['source_item_id']);
    if (id === null) return [];
    if (kind === 'artists') return [{ id, name: text(item['name']) ?? id, detail: null }];
    const artists = Array.isArray(item['artists']) ? item['artists'].filter((artist): artist is string => typeof artist === 'string') : [];
    const year = typeof item['release_year'] === 'number' ? String(item['release_year']) : null;
    const detail = [artists.join(', '), year].filter((part) => part !== null && part !== '').join(' · ');
    return [{ id, name: text(item['title']) ?? id, detail: detail === '' ? null : detail }];
  });
  return { entries, nextCursor: text(body['next_cursor']) };
}

export interface ImportSource {
  readonly id: string;
  readonly name: string;
  readonly kind: string;
  readonly playlistCount: number;
  readonly trackCount: number;
  readonly createdAt: string;
  readonly expiresAt: string;
}

export function parseImportSources(body: unknown): ImportSource[] | undefined {
  if (!isRecord(body) || !Array.isArray(body['imports'])) return undefined;
  return body['imports'].filter(isRecord).flatMap((entry) => {
    const id = text(entry['id']);
    if (id === null) return [];
    const kind = text(entry['kind']) ?? 'file';
    return [
      {
        id,
        kind,
        name: text(entry['name']) ?? (kind === 'url' ? 'Imported link' : kind === 'text' ? 'Pasted text' : 'Imported file'),
        playlistCount: typeof entry['playlist_count'] === 'number' ? entry['playlist_count'] : 0,
        trackCount: typeof entry['track_count'] === 'number' ? entry['track_count'] : 0,
        createdAt: text(entry['created_at']) ?? '',
        expiresAt: text(entry['expires_at']) ?? '',
      },
    ];
  });
}
