import type { SqlStatement } from '../../storage/sql/executors.ts';

/**
 * SQL of generated drafts: pure functions returning `{text, values}`, values bound to `?`. Every
 * statement names the owner: a draft is private to its owner, and another owner's id finds nothing.
 */

export const DRAFT_COLUMNS = `id, owner_id, target_provider, target_account_id, name, description, controls, status, prompt_hash, generation,
  migration_job_id, expires_at, created_at, updated_at, progress_seq`;

export const DRAFT_ITEM_COLUMNS = `id, draft_id, position, status, approved, target_uri, target_id, title, artist, album, duration_s, isrc, explicit,
  confidence, reason, intent, candidates, progress_seq`;

export interface NewDraft {
  id: string;
  ownerId: string;
  targetProvider: string;
  targetAccountId: string;
  name: string;
  controls: Record<string, unknown>;
  promptHash: string;
  generation: Record<string, unknown>;
  ttlHours: number;
  /** `generating` while the model and the searches run (the items arrive as they are resolved). */
  status?: 'generating' | 'draft';
}

export function insertDraft(draft: NewDraft): SqlStatement {
  return {
    text: `insert into generation_draft (id, owner_id, target_provider, target_account_id, name, controls, status, prompt_hash, generation, expires_at)
           values (?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?::jsonb, now() + make_interval(hours => ?)) returning ${DRAFT_COLUMNS}`,
    values: [draft.id, draft.ownerId, draft.targetProvider, draft.targetAccountId, draft.name, JSON.stringify(draft.controls), draft.status ?? 'draft', draft.promptHash, JSON.stringify(draft.generation), draft.ttlHours],
  };
}

export interface NewDraftItem {
  status: 'pending' | 'resolved' | 'unresolved' | 'removed';
  approved: boolean;
  targetUri: string | null;
  targetId: string | null;
  title: string;
  artist: string;
  album: string | null;
  durationS: number | null;
  isrc: string | null;
  explicit: boolean | null;
  confidence: number | null;
  reason: string | null;
  intent: Record<string, unknown> | null;
  candidates?: unknown[];
}

/** The items in list order (positions `from`…`from`+n-1). */
export function insertDraftItems(draftId: string, ownerId: string, items: readonly NewDraftItem[], from = 0): SqlStatement {
  const rows = items.map((item, index) => ({
    position: from + index,
    status: item.status,
    approved: item.approved,
    target_uri: item.targetUri,
    target_id: item.targetId,
    title: item.title,
    artist: item.artist,
    album: item.album,
    duration_s: item.durationS === null ? null : Math.round(item.durationS),
    isrc: item.isrc,
    explicit: item.explicit,
    confidence: item.confidence,
    reason: item.reason,
    intent: item.intent,
    candidates: item.candidates ?? [],
  }));
  return {
    text: `insert into generation_draft_item (draft_id, owner_id, position, status, approved, target_uri, target_id, title, artist, album, duration_s, isrc, explicit, confidence, reason, intent, candidates)
           select ?, ?, r.position, r.status, r.approved, r.target_uri, r.target_id, r.title, r.artist, r.album, r.duration_s, r.isrc, r.explicit, r.confidence, r.reason, r.intent, r.candidates
           from jsonb_to_recordset(?::jsonb) as r(position int, status text, approved boolean, target_uri text, target_id text, title text, artist text, album text,
             duration_s int, isrc text, explicit boolean, confidence double precision, reason text, intent jsonb, candidates jsonb)
           returning id`,
    values: [draftId, ownerId, JSON.stringify(rows)],
  };
}

/** A draft is readable until it expires; a confirmed one as long as its migration's history (see `claimDraft`). */
const VISIBLE = `(expires_at > now() or status = 'confirmed')`;

export function selectDraft(ownerId: string, draftId: string): SqlStatement {
  return { text: `select ${DRAFT_COLUMNS} from generation_draft where id = ? and owner_id = ? and ${VISIBLE}`, values: [draftId, ownerId] };
}

export function selectDrafts(ownerId: string, limit: number): SqlStatement {
  return { text: `select ${DRAFT_COLUMNS} from generation_draft where owner_id = ? and ${VISIBLE} order by created_at desc, id limit ?`, values: [ownerId, limit] };
}

export function selectDraftItems(ownerId: string, draftId: string): SqlStatement {
  return { text: `select ${DRAFT_ITEM_COLUMNS} from generation_draft_item where draft_id = ? and owner_id = ? order by position, id`, values: [draftId, ownerId] };
}

/** A confirmed draft is its migration's source and stays (see `claimDraft`). */
export function deleteDraft(ownerId: string, draftId: string): SqlStatement {
  return { text: `delete from generation_draft where id = ? and owner_id = ? and status <> 'confirmed' returning id`, values: [draftId, ownerId] };
}

/** Unconfirmed drafts past their time (a confirmed one stays as long as its migration's history). */
export function deleteExpiredDrafts(limit: number): SqlStatement {
  return {
    text: `delete from generation_draft where id in (select id from generation_draft where expires_at <= now() and status <> 'confirmed' order by expires_at limit ?) returning id`,
    values: [limit],
  };
}

/**
 * Confirmation: the draft becomes the migration job's source, in the job's own transaction. Only
 * one job can claim it (`migration_job_id is null`); a confirmed draft is frozen and never expires
 * before its job's history.
 */
export function claimDraft(ownerId: string, draftId: string, jobId: string): SqlStatement {
  return {
    text: `update generation_draft set status = 'confirmed', migration_job_id = ?, updated_at = now()
           where id = ? and owner_id = ? and migration_job_id is null and status in ('draft', 'approved') and expires_at > now() returning id`,
    values: [jobId, draftId, ownerId],
  };
}

/** The approved, resolved items of a draft in order: what its confirmation migrates. */
export function selectApprovedItems(ownerId: string, draftId: string): SqlStatement {
  return {
    text: `select d.name, d.target_provider, i.target_uri, i.target_id, i.title, i.artist, i.album, i.duration_s, i.isrc, i.explicit
           from generation_draft d left join generation_draft_item i on i.draft_id = d.id and i.status = 'resolved' and i.approved
           where d.id = ? and d.owner_id = ? and (d.expires_at > now() or d.status = 'confirmed')
           order by i.position, i.id`,
    values: [draftId, ownerId],
  };
}

/** Edits apply to a draft that is still a draft: not confirmed, not discarded, not expired. */
const EDITABLE = `status in ('draft', 'approved') and expires_at > now()`;

export function renameDraft(ownerId: string, draftId: string, name: string): SqlStatement {
  return { text: `update generation_draft set name = ?, updated_at = now() where id = ? and owner_id = ? and ${EDITABLE} returning id`, values: [name, draftId, ownerId] };
}

/**
 * Approves, unapproves, removes or restores one item. Only a resolved item that is not removed
 * can be approved (no row comes back otherwise); removing unapproves; restoring brings back what
 * the item was (resolved or unresolved).
 */
export function updateDraftItem(ownerId: string, draftId: string, itemId: string, change: { approved?: boolean; removed?: boolean }): SqlStatement {
  const removed = change.removed ?? null;
  const approved = change.approved ?? null;
  return {
    text: `update generation_draft_item i set
             status = case when ?::boolean then 'removed' when not ?::boolean and i.status = 'removed' then (case when i.target_uri is null then 'unresolved' else 'resolved' end) else i.status end,
             approved = case when ?::boolean then false else coalesce(?::boolean, i.approved) end,
             updated_at = now()
           from generation_draft d
           where i.id = ? and i.draft_id = ? and i.owner_id = ? and d.id = i.draft_id and d.status in ('draft', 'approved') and d.expires_at > now()
             and (?::boolean is not true or (i.target_uri is not null and (i.status <> 'removed' or ?::boolean is false)))
           returning i.id`,
    values: [removed, removed, removed, approved, itemId, draftId, ownerId, approved, removed],
  };
}

/** Moves the draft's items into the order given (every item id exactly once). */
export function reorderDraftItems(ownerId: string, draftId: string, itemIds: readonly string[]): SqlStatement {
  return {
    text: `update generation_draft_item i set position = o.position - 1, updated_at = now()
           from jsonb_array_elements_text(?::jsonb) with ordinality as o(id, position), generation_draft d
           where i.id = o.id::uuid and i.draft_id = ? and i.owner_id = ? and d.id = i.draft_id and d.status in ('draft', 'approved') and d.expires_at > now()
           returning i.id`,
    values: [JSON.stringify(itemIds), draftId, ownerId],
  };
}

/** Appends a track the user chose from a search (approved: it is their own choice). */
export function appendDraftItem(ownerId: string, draftId: string, item: NewDraftItem): SqlStatement {
  return {
    text: `insert into generation_draft_item (draft_id, owner_id, position, status, approved, target_uri, target_id, title, artist, album, duration_s, isrc, explicit, confidence, reason, intent)
           select d.id, d.owner_id, coalesce((select max(position) + 1 from generation_draft_item where draft_id = d.id and owner_id = d.owner_id), 0), 'resolved', true, ?, ?, ?, ?, ?, ?, ?, ?, null, ?, null
           from generation_draft d where d.id = ? and d.owner_id = ? and d.status in ('draft', 'approved') and d.expires_at > now()
           returning id`,
    values: [item.targetUri, item.targetId, item.title, item.artist, item.album, item.durationS === null ? null : Math.round(item.durationS), item.isrc, item.explicit, item.reason, draftId, ownerId],
  };
}
