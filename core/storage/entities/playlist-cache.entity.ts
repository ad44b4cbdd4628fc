import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { ownerId, uuidPrimaryKey } from './columns.ts';
import { ProviderAccount } from './provider-account.entity.ts';

/**
 * Private cache of a connected account's playlist list and of read playlists, keyed by the
 * provider's snapshot id where it has one: the list refreshes only when the user asks, and a
 * playlist's tracks are read again only when its snapshot id changed (or on request).
 */
export const PlaylistCache = defineEntity({
  name: 'PlaylistCache',
  tableName: 'playlist_cache',
  properties: {
    id: uuidPrimaryKey(),
    ownerId: ownerId(),
    providerAccount: p.manyToOne(ProviderAccount).deleteRule('cascade'),
    /** `list` for the playlist list, `playlist:<provider playlist id>` for one playlist with tracks. */
    scope: p.text(),
    snapshotId: p.text().nullable(),
    payload: p.json<unknown>(),
    /** A cached playlist's compact track digest (`core/services/playlists/track-digest.ts`), what the Library workspace reads; null for the list. */
    trackDigest: p.text().nullable(),
    fetchedAt: p.datetime(),
  },
  uniques: [{ name: 'playlist_cache_scope_unique', properties: ['providerAccount', 'scope'] }],
});

export type PlaylistCache = InferEntity<typeof PlaylistCache>;
