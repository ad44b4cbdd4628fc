import type { SqlStatement } from '../../storage/sql/executors.ts';

/**
 * SQL of the Home overview (`?` parameter markers). Each statement is a small aggregate over
 * indexed columns, so the overview stays cheap however large the library is: no cached payload
 * is read whole.
 */

/** Per account: how many playlists its cached list holds and when it was read, and how many playlists have their songs cached. */
export function selectCacheCounts(ownerId: string): SqlStatement {
  return {
    text: `select provider_account_id::text as account_id,
                  max(fetched_at) filter (where scope = 'list') as fetched_at,
                  max(case when scope = 'list' and jsonb_typeof(payload) = 'array' then jsonb_array_length(payload) end) as playlists,
                  count(*) filter (where starts_with(scope, 'playlist:')) as tracks_read
           from playlist_cache where owner_id = ? group by provider_account_id`,
    values: [ownerId],
  };
}

const JOB_NAME = `(select string_agg(c->>'name', ', ') from jsonb_array_elements(case when jsonb_typeof(j.selection->'collections') = 'array' then j.selection->'collections' else '[]'::jsonb end) as c)`;

/** The newest jobs, with the names of the collections they copy. */
export function selectRecentJobs(ownerId: string, limit: number): SqlStatement {
  return {
    text: `select j.id::text, j.status, j.outcome, j.origin, j.source_kind, j.source_provider, j.target_provider, j.created_at, j.completed_at, ${JOB_NAME} as name
           from migration_job j where j.owner_id = ? order by j.created_at desc, j.id limit ?`,
    values: [ownerId, limit],
  };
}

/** How many jobs are queued, running, paused or waiting for review. */
export function selectActiveJobCount(ownerId: string): SqlStatement {
  return {
    text: `select count(*)::int as active from migration_job where owner_id = ? and status in ('queued', 'running', 'paused', 'awaiting_review')`,
    values: [ownerId],
  };
}

/** Jobs waiting for the user's review, with how many songs wait in each. */
export function selectReviewsWaiting(ownerId: string): SqlStatement {
  return {
    text: `select j.id::text as job_id, j.origin, j.source_provider, j.target_provider, j.created_at, ${JOB_NAME} as name,
                  (select count(*)::int from job_item i where i.job_id = j.id and i.status = 'needs_review') as items
           from migration_job j where j.owner_id = ? and j.status = 'awaiting_review' order by j.created_at desc, j.id`,
    values: [ownerId],
  };
}

/** Sync rules that need the user: paused, waiting for review, or failing. */
export function selectRulesNeedingAttention(ownerId: string): SqlStatement {
  return {
    text: `select id::text, name, status, pause_code, pause_reason, consecutive_failures, source_provider, target_provider
           from sync_rule where owner_id = ? and (status <> 'active' or consecutive_failures > 0)
           order by updated_at desc, id`,
    values: [ownerId],
  };
}

export function selectRuleCount(ownerId: string): SqlStatement {
  return { text: `select count(*)::int as total from sync_rule where owner_id = ?`, values: [ownerId] };
}
