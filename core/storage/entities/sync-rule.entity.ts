import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, ownerId, updatedAt, uuidPrimaryKey } from './columns.ts';
import { SYNC_COLLECTION_KINDS, SYNC_MODES, SYNC_RULE_STATUSES, SYNC_SCHEDULE_KINDS } from './values.ts';

/** The NOTIFY channel of sync rule and run changes (payload: the owner id). */
export const SYNC_PROGRESS_CHANNEL = 'opl_sync_progress';

/**
 * Rule and run changes are the sync events: every insert or update takes the next number of one
 * sequence (the event id, so a client resuming after N misses nothing of its owner's rules) and
 * wakes the event streams of every process through NOTIFY, whichever process made the change.
 */
export function syncProgressTriggerBody(): string {
  return `NEW.progress_seq := nextval('sync_progress_seq');
    perform pg_notify('${SYNC_PROGRESS_CHANNEL}', NEW.owner_id);
    return NEW;`;
}

/**
 * A deleted rule leaves its event behind (sync_rule_deletion), numbered from the same sequence,
 * so an open stream tells every page that the rule is gone.
 */
export function syncRuleDeletedTriggerBody(): string {
  return `insert into sync_rule_deletion (rule_id, owner_id, progress_seq, deleted_at) values (OLD.id, OLD.owner_id, nextval('sync_progress_seq'), now());
    perform pg_notify('${SYNC_PROGRESS_CHANNEL}', OLD.owner_id);
    return OLD;`;
}

/** A one-way scheduled sync, started from one completed full-playlist migration. */
export const SyncRule = defineEntity({
  name: 'SyncRule',
  tableName: 'sync_rule',
  properties: {
    id: uuidPrimaryKey(),
    ownerId: ownerId(),
    /** The completed migration job the rule was created from. */
    originJobId: p.uuid(),
    /** The source playlist's name when the rule was made (for lists; the rule follows ids). */
    name: p.text().default(''),
    /** `PLAYLIST`, or `LIKED_TRACKS` (a saved collection: add-only for ever). */
    collectionKind: p.enum(SYNC_COLLECTION_KINDS).default('PLAYLIST'),
    sourceProvider: p.text(),
    sourceAccountId: p.text(),
    sourcePlaylistId: p.text(),
    targetProvider: p.text(),
    targetAccountId: p.text(),
    targetPlaylistId: p.text(),
    mode: p.enum(SYNC_MODES).default('add_only'),
    /** Mirror: a run that would remove more entries than this waits for the owner's approval. */
    mirrorMaxRemovals: p.integer().default(20),
    /** Mirror: also remove (and order) entries the rule did not write — the owner's own additions. Off by default. */
    mirrorRemovesForeign: p.boolean().default(false),
    status: p.enum(SYNC_RULE_STATUSES).default('active'),
    /** Machine-readable cause of a pause (`auth_expired`, `source_deleted`, `repeated_failures`, …). */
    pauseCode: p.text().nullable(),
    /** Why the rule is paused (e.g. expired credentials), for the UI's next action. */
    pauseReason: p.text().nullable(),
    scheduleKind: p.enum(SYNC_SCHEDULE_KINDS).default('interval'),
    /** `interval` rules: minutes between runs (5 … 10080). */
    intervalMinutes: p.integer().nullable(),
    /** `daily` rules: wall-clock `HH:MM` in `timeZone`. */
    dailyAt: p.text().nullable(),
    timeZone: p.text().nullable(),
    nextRunAt: p.datetime().nullable(),
    lastRunAt: p.datetime().nullable(),
    consecutiveFailures: p.integer().default(0),
    /** Set by a trigger on every change: the sync event stream's ids. */
    progressSeq: p.bigint('number').nullable(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  triggers: [
    { name: 'sync_rule_progress', timing: 'before', events: ['insert', 'update'], forEach: 'row', body: syncProgressTriggerBody() },
    { name: 'sync_rule_deleted', timing: 'after', events: ['delete'], forEach: 'row', body: syncRuleDeletedTriggerBody() },
  ],
  indexes: [{ properties: ['ownerId'] }, { properties: ['status', 'nextRunAt'] }, { properties: ['ownerId', 'progressSeq'] }],
  checks: [
    { name: 'sync_rule_interval_positive', expression: 'interval_minutes is null or (interval_minutes >= 5 and interval_minutes <= 10080)' },
    { name: 'sync_rule_mirror_max_removals_range', expression: 'mirror_max_removals >= 0 and mirror_max_removals <= 10000' },
    { name: 'sync_rule_schedule_complete', expression: `(schedule_kind = 'interval' and interval_minutes is not null) or (schedule_kind = 'daily' and daily_at is not null and time_zone is not null)` },
  ],
});

export type SyncRule = InferEntity<typeof SyncRule>;
