/** SQL of the share store, as pure functions so each statement can be read and tested alone. */
import type { SqlStatement } from '../imports/import-record.sql.ts';

export interface NewShareRow {
  id: string;
  ownerId: string;
  tokenHash: string;
  snapshot: unknown;
  name: string;
  trackCount: number;
  sourceProvider: string | null;
  expiresAt: Date | null;
}

const SUMMARY = 'id, name, track_count, source_provider, created_at, expires_at, revoked_at';

export function insertShare(row: NewShareRow): SqlStatement {
  return {
    text:
      'insert into share (id, owner_id, token_hash, snapshot, name, track_count, source_provider, expires_at, created_at, updated_at) ' +
      `values (?, ?, ?, ?::jsonb, ?, ?, ?, ?, now(), now()) returning ${SUMMARY}`,
    values: [row.id, row.ownerId, row.tokenHash, JSON.stringify(row.snapshot), row.name, row.trackCount, row.sourceProvider, row.expiresAt],
  };
}

/** An owner's shares, newest first, without their snapshots. */
export function selectSharesOfOwner(ownerId: string, limit: number): SqlStatement {
  return { text: `select ${SUMMARY} from share where owner_id = ? order by created_at desc, id limit ?`, values: [ownerId, limit] };
}

/** The snapshot of a live share: not revoked, not expired. Another token reads as absent. */
export function selectLiveShareSnapshot(tokenHash: string): SqlStatement {
  return {
    text: 'select snapshot from share where token_hash = ? and revoked_at is null and (expires_at is null or expires_at > now())',
    values: [tokenHash],
  };
}

/** Revokes one share of one owner by id or token hash; answers the row when it was live. */
export function revokeShare(ownerId: string, key: { id: string } | { tokenHash: string }): SqlStatement {
  const [column, value] = 'id' in key ? ['id', key.id] : ['token_hash', key.tokenHash];
  return {
    text: `update share set revoked_at = coalesce(revoked_at, now()), updated_at = now() where owner_id = ? and ${column} = ? returning ${SUMMARY}`,
    values: [ownerId, value],
  };
}

/** Deletes shares revoked or expired before `before`, at most `batchSize` of them. */
export function deleteEndedShares(before: Date, batchSize: number): SqlStatement {
  return {
    text:
      'delete from share where id in (select id from share where (revoked_at is not null and revoked_at < ?) or (expires_at is not null and expires_at < ?) ' +
      'order by created_at limit ? for update skip locked) returning id',
    values: [before, before, batchSize],
  };
}
