import type { Album, Artist } from '@opl/plugin-sdk';
import type { ConnectionService } from '../connections/connection.service.ts';

/**
 * Reads a connected account's saved albums and followed artists, one provider page at a time,
 * through its provider plugin: the host attaches the account's credentials and paces the calls
 * with the central rate limiter, as for every other provider call. Not cached: the lists serve the
 * migration wizard's selection, where a stale entry would only fail the job's own read later.
 */

export type LibraryKind = 'albums' | 'artists';

/** The provider capability each list needs, and the plugin operation that reads it. */
const LISTS = {
  albums: { capability: 'READ_SAVED_ALBUMS', op: 'listSavedAlbums', noun: 'saved albums' },
  artists: { capability: 'READ_FOLLOWED_ARTISTS', op: 'listFollowedArtists', noun: 'followed artists' },
} as const;

/** Entries per page when the client does not say. */
export const LIBRARY_PAGE_DEFAULT = 50;
export const LIBRARY_PAGE_MAX = 100;

export interface LibraryPageView<T> {
  account_id: string;
  provider: string;
  /** The provider's cursor of the next page; null on the last page. */
  next_cursor: string | null;
  items: T[];
}

/** The account's service does not keep (or does not let plugins read) this kind of library. */
export class LibraryUnsupportedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LibraryUnsupportedError';
  }
}

interface Dependencies {
  readonly connections: Pick<ConnectionService, 'call' | 'get'>;
  readonly capabilitiesOf: (provider: string) => readonly string[];
}

export class LibraryReadService {
  readonly #deps: Dependencies;

  constructor(deps: Dependencies) {
    this.#deps = deps;
  }

  albums(ownerId: string, accountId: string, cursor: string | null, limit = LIBRARY_PAGE_DEFAULT): Promise<LibraryPageView<Album>> {
    return this.#page(ownerId, accountId, 'albums', cursor, limit) as Promise<LibraryPageView<Album>>;
  }

  artists(ownerId: string, accountId: string, cursor: string | null, limit = LIBRARY_PAGE_DEFAULT): Promise<LibraryPageView<Artist>> {
    return this.#page(ownerId, accountId, 'artists', cursor, limit) as Promise<LibraryPageView<Artist>>;
  }

  async #page(ownerId: string, accountId: string, kind: LibraryKind, cursor: string | null, limit: number): Promise<LibraryPageView<Album | Artist>> {
    const account = await this.#deps.connections.get(ownerId, accountId);
    const list = LISTS[kind];
    if (!this.#deps.capabilitiesOf(account.provider).includes(list.capability)) {
      throw new LibraryUnsupportedError(`${account.provider} does not let the engine read ${list.noun}; choose playlists or liked songs instead.`);
    }
    const page = await this.#deps.connections.call(ownerId, accountId, list.op, { cursor, limit: Math.min(Math.max(1, limit), LIBRARY_PAGE_MAX) });
    // A provider that hands back the cursor it was given would page forever: that is the end.
    const next = page.next_cursor && page.next_cursor !== cursor ? page.next_cursor : null;
    return { account_id: accountId, provider: account.provider, next_cursor: next, items: page.items };
  }
}
