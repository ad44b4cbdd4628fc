import { PluginError } from '@opl/plugin-sdk';
import type { LibraryReadService } from '../library/library-read.service.ts';
import type { SnapshotItem } from './archive/index.ts';

/**
 * Library collections a snapshot selection may name beside playlists and `liked`: saved albums
 * and followed artists, read page by page through the library reader, which refuses a provider
 * whose manifest does not advertise them (`READ_SAVED_ALBUMS`, `READ_FOLLOWED_ARTISTS`); the
 * collection then fails in the manifest with the reason, and the rest of the snapshot goes on.
 */
export const LIBRARY_COLLECTIONS = { saved_albums: { name: 'Saved albums', list: 'albums' }, followed_artists: { name: 'Followed artists', list: 'artists' } } as const;

export type LibraryCollectionId = keyof typeof LIBRARY_COLLECTIONS;

export const isLibraryCollection = (id: string): id is LibraryCollectionId => Object.hasOwn(LIBRARY_COLLECTIONS, id);

export async function* libraryCollectionItems(library: Pick<LibraryReadService, 'albums' | 'artists'> | undefined, id: LibraryCollectionId, ownerId: string, accountId: string): AsyncGenerator<SnapshotItem> {
  if (!library) throw new PluginError('Unsupported', 'This engine cannot read saved albums or followed artists.');
  let cursor: string | null = null;
  do {
    const page: { next_cursor: string | null; items: readonly SnapshotItem[] } = await library[LIBRARY_COLLECTIONS[id].list](ownerId, accountId, cursor, 100);
    yield* page.items;
    cursor = page.next_cursor;
  } while (cursor !== null);
}
