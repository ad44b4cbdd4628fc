import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, ownerId, updatedAt, uuidPrimaryKey } from './columns.ts';
import { IMPORT_KINDS, IMPORT_STATES } from './values.ts';

/**
 * The normalised result of a file, URL or text import preview. Only normalised playlists and
 * bounded issues are kept. A migration claims it atomically (`queued`); success deletes it, a
 * failed job keeps it until `grace_until`.
 */
export const ImportRecord = defineEntity({
  name: 'ImportRecord',
  tableName: 'import_record',
  properties: {
    id: uuidPrimaryKey(),
    ownerId: ownerId(),
    kind: p.enum(IMPORT_KINDS),
    /** Display label: the file name or the URL host; never file contents. */
    sourceLabel: p.text().nullable(),
    /** The format that read it (`csv`, `m3u8`, …), as named by the format plugin. */
    format: p.text().nullable(),
    /** Normalised universal Playlist models with ordered tracks, each track without its default fields (stored-playlists.ts). */
    // `json`, not `jsonb`: the record is written once and read whole, never queried inside, and
    // PostgreSQL stores 100,000 tracks as json in about a third of the time it takes to build jsonb.
    playlists: p.json<unknown[]>().columnType('json'),
    /** How many playlists, and tracks in all, `playlists` holds: a list of records says so without reading them. */
    playlistCount: p.integer().default(0),
    trackCount: p.integer().default(0),
    /** Bounded line-level validation issues. */
    issues: p.json<unknown[]>().defaultRaw(`'[]'::jsonb`),
    state: p.enum(IMPORT_STATES).default('previewed'),
    /** The migration job that claimed it. */
    jobId: p.uuid().nullable(),
    expiresAt: p.datetime(),
    graceUntil: p.datetime().nullable(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  indexes: [{ properties: ['ownerId'] }, { properties: ['expiresAt'] }, { properties: ['jobId'] }],
});

export type ImportRecord = InferEntity<typeof ImportRecord>;
