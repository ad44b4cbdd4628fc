import type { SqlStatement } from '../../storage/sql/executors.ts';
import type { NewDraftItem } from './generator.sql.ts';

/**
 * SQL of a generation in progress (a new draft, or a regeneration of an existing one) and of the
 * edits that reuse what resolution kept (replace). Pure functions returning `{text, values}`; each
 * statement names the owner, so another owner's draft id finds nothing.
 */

/** Merges `patch` into the draft's `generation` record and optionally moves its status. */
export function updateGeneration(ownerId: string, draftId: string, patch: Record<string, unknown>, status: string | null = null): SqlStatement {
  return {
    text: `update generation_draft set generation = generation || ?::jsonb, status = coalesce(?, status), updated_at = now() where id = ? and owner_id = ? returning id`,
    values: [JSON.stringify(patch), status, draftId, ownerId],
  };
}

/**
 * Starts a regeneration of a draft that is not confirmed: it becomes `generating` again with the
 * controls given (the previous run's summary is replaced), unless a generation already runs.
 */
export function beginRegeneration(ownerId: string, draftId: string, controls: Record<string, unknown>, promptHash: string, generation: Record<string, unknown>): SqlStatement {
  return {
    text: `update generation_draft set status = 'generating', controls = ?::jsonb, prompt_hash = ?, generation = ?::jsonb, updated_at = now()
           where id = ? and owner_id = ? and status in ('draft', 'approved', 'failed') and migration_job_id is null and expires_at > now() returning id`,
    values: [JSON.stringify(controls), promptHash, JSON.stringify(generation), draftId, ownerId],
  };
}

/** Asks a running generation to stop (the process running it learns it from the row's notification). */
export function requestCancel(ownerId: string, draftId: string): SqlStatement {
  return {
    text: `update generation_draft set generation = generation || '{"cancel_requested": true}'::jsonb, updated_at = now() where id = ? and owner_id = ? and status = 'generating' returning id`,
    values: [draftId, ownerId],
  };
}

export function selectCancelRequested(ownerId: string, draftId: string): SqlStatement {
  return { text: `select coalesce((generation->>'cancel_requested')::boolean, false) as cancel from generation_draft where id = ? and owner_id = ?`, values: [draftId, ownerId] };
}

/** All items go (regenerate all): the new proposals replace them. */
export function deleteDraftItems(ownerId: string, draftId: string): SqlStatement {
  return { text: `delete from generation_draft_item where draft_id = ? and owner_id = ? returning id`, values: [draftId, ownerId] };
}

/** An open slot (unresolved or removed) takes a new proposal, in place, waiting to be searched. */
export function refillSlot(ownerId: string, draftId: string, itemId: string, intent: { title: string; artist: string; album: string | null }): SqlStatement {
  return {
    text: `update generation_draft_item set status = 'pending', approved = false, target_uri = null, target_id = null, title = ?, artist = ?, album = ?, duration_s = null, isrc = null,
             explicit = null, confidence = null, reason = null, intent = ?::jsonb, candidates = '[]'::jsonb, updated_at = now()
           where id = ? and draft_id = ? and owner_id = ? and status in ('unresolved', 'removed') returning id`,
    values: [intent.title, intent.artist, intent.album, JSON.stringify(intent), itemId, draftId, ownerId],
  };
}

/** The outcome of searching one item: what the target has, or why nothing was taken. */
export function settleItem(ownerId: string, draftId: string, itemId: string, item: NewDraftItem): SqlStatement {
  return {
    text: `update generation_draft_item set status = ?, approved = ?, target_uri = ?, target_id = ?, title = ?, artist = ?, album = ?, duration_s = ?, isrc = ?, explicit = ?,
             confidence = ?, reason = ?, candidates = ?::jsonb, updated_at = now()
           where id = ? and draft_id = ? and owner_id = ? returning id`,
    values: [
      item.status,
      item.approved,
      item.targetUri,
      item.targetId,
      item.title,
      item.artist,
      item.album,
      item.durationS === null ? null : Math.round(item.durationS),
      item.isrc,
      item.explicit,
      item.confidence,
      item.reason,
      JSON.stringify(item.candidates ?? []),
      itemId,
      draftId,
      ownerId,
    ],
  };
}

/** Items still waiting to be searched when a generation stops early: kept, as not searched. */
export function abandonPendingItems(ownerId: string, draftId: string, reason: string): SqlStatement {
  return {
    text: `update generation_draft_item set status = 'unresolved', reason = ?, updated_at = now() where draft_id = ? and owner_id = ? and status = 'pending' returning id`,
    values: [reason, draftId, ownerId],
  };
}

/**
 * A generation whose process went away (a crash, a restart) never finishes by itself: after
 * `minutes` without a change it ends, its unsearched items kept as not searched. Owner-independent
 * maintenance, like the expiry of drafts.
 */
export function endAbandonedGenerations(minutes: number): SqlStatement[] {
  const stale = `select id from generation_draft where status = 'generating' and updated_at < now() - make_interval(mins => ?)`;
  return [
    {
      text: `update generation_draft_item set status = 'unresolved', reason = 'Not searched: the engine stopped during the generation.', updated_at = now()
             where status = 'pending' and draft_id in (${stale}) returning id`,
      values: [minutes],
    },
    {
      text: `update generation_draft d set status = case when exists (select 1 from generation_draft_item i where i.draft_id = d.id and i.owner_id = d.owner_id) then 'draft' else 'failed' end,
               generation = generation || '{"error": {"code": "interrupted", "message": "The engine stopped during the generation; generate again."}}'::jsonb, updated_at = now()
             where d.id in (${stale}) returning d.id`,
      values: [minutes],
    },
  ];
}

/** Replaces an item's track with one the target returned (a kept candidate, or a search result); the user's choice, so approved. */
export function replaceItemTrack(ownerId: string, draftId: string, itemId: string, item: NewDraftItem): SqlStatement {
  return {
    text: `update generation_draft_item i set status = 'resolved', approved = true, target_uri = ?, target_id = ?, title = ?, artist = ?, album = ?, duration_s = ?, isrc = ?, explicit = ?,
             confidence = ?, reason = ?, updated_at = now()
           from generation_draft d
           where i.id = ? and i.draft_id = ? and i.owner_id = ? and d.id = i.draft_id and d.owner_id = i.owner_id and d.status in ('draft', 'approved') and d.expires_at > now()
           returning i.id`,
    values: [item.targetUri, item.targetId, item.title, item.artist, item.album, item.durationS === null ? null : Math.round(item.durationS), item.isrc, item.explicit, item.confidence, item.reason, itemId, draftId, ownerId],
  };
}

/** Progress events of one draft after event id `after`: its changed items, oldest first. */
export function selectItemEvents(ownerId: string, draftId: string, after: number, limit: number): SqlStatement {
  return {
    text: `select id, draft_id, position, status, approved, target_uri, target_id, title, artist, album, duration_s, isrc, explicit, confidence, reason, intent, candidates, progress_seq
           from generation_draft_item where draft_id = ? and owner_id = ? and progress_seq > ? order by progress_seq limit ?`,
    values: [draftId, ownerId, after, limit],
  };
}
