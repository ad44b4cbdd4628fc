/**
 * SQL of generated drafts: pure functions returning `{text, values}` with `?` placeholders. Every
 * statement names the owner: a draft is private to its owner, and another owner's id finds nothing.
 */

export interface SqlStatement {
  text: string;
  values: unknown[];
}

export const DRAFT_COLUMNS = `id, owner_id, target_provider, target_account_id, name, description, controls, status, prompt_hash, generation,
  migration_job_id, expires_at, created_at, updated_at`;

export const DRAFT_ITEM_COLUMNS = `id, draft_id, position, status, approved, target_uri, target_id, title, artist, album, duration_s, isrc, explicit,
  confidence, reason, intent`;

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
}

export function insertDraft(draft: NewDraft): SqlStatement {
  return {
    text: `insert into generation_draft (id, owner_id, target_provider, target_account_id, name, controls, status, prompt_hash, generation, expires_at)
           values (?, ?, ?, ?, ?, ?::jsonb, 'draft', ?, ?::jsonb, now() + make_interval(hours => ?)) returning ${DRAFT_COLUMNS}`,
    values: [draft.id, draft.ownerId, draft.targetProvider, draft.targetAccountId, draft.name, JSON.stringify(draft.controls), draft.promptHash, JSON.stringify(draft.generation), draft.ttlHours],
  };
}

export interface NewDraftItem {
  status: 'resolved' | 'unresolved';
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
  reason: string;
  intent: Record<string, unknown>;
}

/** The items in list order (positions 0…n-1). */
export function insertDraftItems(draftId: string, ownerId: string, items: readonly NewDraftItem[]): SqlStatement {
  const rows = items.map((item, position) => ({
    position,
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
  }));
  return {
    text: `insert into generation_draft_item (draft_id, owner_id, position, status, approved, target_uri, target_id, title, artist, album, duration_s, isrc, explicit, confidence, reason, intent)
           select ?, ?, r.position, r.status, r.approved, r.target_uri, r.target_id, r.title, r.artist, r.album, r.duration_s, r.isrc, r.explicit, r.confidence, r.reason, r.intent
           from jsonb_to_recordset(?::jsonb) as r(position int, status text, approved boolean, target_uri text, target_id text, title text, artist text, album text,
             duration_s int, isrc text, explicit boolean, confidence double precision, reason text, intent jsonb)`,
    values: [draftId, ownerId, JSON.stringify(rows)],
  };
}

export function selectDraft(ownerId: string, draftId: string): SqlStatement {
  return { text: `select ${DRAFT_COLUMNS} from generation_draft where id = ? and owner_id = ? and expires_at > now()`, values: [draftId, ownerId] };
}

export function selectDrafts(ownerId: string, limit: number): SqlStatement {
  return { text: `select ${DRAFT_COLUMNS} from generation_draft where owner_id = ? and expires_at > now() order by created_at desc, id limit ?`, values: [ownerId, limit] };
}

export function selectDraftItems(ownerId: string, draftId: string): SqlStatement {
  return { text: `select ${DRAFT_ITEM_COLUMNS} from generation_draft_item where draft_id = ? and owner_id = ? order by position, id`, values: [draftId, ownerId] };
}

export function deleteDraft(ownerId: string, draftId: string): SqlStatement {
  return { text: `delete from generation_draft where id = ? and owner_id = ? returning id`, values: [draftId, ownerId] };
}

/** Unconfirmed drafts past their time (a confirmed one stays as long as its migration's history). */
export function deleteExpiredDrafts(limit: number): SqlStatement {
  return {
    text: `delete from generation_draft where id in (select id from generation_draft where expires_at <= now() and status <> 'confirmed' order by expires_at limit ?) returning id`,
    values: [limit],
  };
}
