import { randomUUID } from 'node:crypto';
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, ownerId, updatedAt, uuidPrimaryKey } from './columns.ts';

/** A saved set of connected accounts and selected collections to snapshot. */
export const SnapshotProfile = defineEntity({
  name: 'SnapshotProfile',
  tableName: 'snapshot_profile',
  properties: {
    id: uuidPrimaryKey(),
    ownerId: ownerId(),
    name: p.text(),
    /** Accounts and their selected collections (standard playlists, liked tracks). */
    selection: p.json<Record<string, unknown>>(),
    /** Stable library lineage shared by every snapshot of this profile (`snapshot:<library_id>`). */
    libraryId: p
      .uuid()
      .onCreate(() => randomUUID())
      .defaultRaw('gen_random_uuid()'),
    /** When snapshots are taken on their own (`{kind: daily|weekly, at, time_zone, weekday?}`); null: only on request. */
    schedule: p.json<Record<string, unknown>>().nullable(),
    /** The next scheduled snapshot; null without a schedule. */
    nextRunAt: p.datetime().nullable(),
    /** Which of the profile's snapshots are kept (`{keep_last?, keep_days?}`); null: all of them. */
    retention: p.json<Record<string, unknown>>().nullable(),
    /**
     * Null for a profile the owner made. An automatic one is kept by the engine itself: `organizer`
     * (taken before destructive organizer jobs) or `sync` (before mirror runs), one per account.
     */
    automaticOrigin: p.text().nullable(),
    /** The account an automatic profile snapshots; null for the owner's own profiles. */
    automaticAccountId: p.uuid().nullable(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  indexes: [{ properties: ['ownerId'] }, { properties: ['nextRunAt'] }],
  // One automatic profile per owner, account and origin (the owner's own profiles have nulls there, which never collide).
  uniques: [{ name: 'snapshot_profile_automatic_unique', properties: ['ownerId', 'automaticAccountId', 'automaticOrigin'] }],
});

export type SnapshotProfile = InferEntity<typeof SnapshotProfile>;
