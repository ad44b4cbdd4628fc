import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Playlist } from '@opl/plugin-sdk';
import type { ConnectionService } from '../connections/connection.service.ts';
import { importCollectionIds, type ImportRecordService } from '../imports/index.ts';
import type { SqlExecutor } from '../imports/import-record.service.ts';
import { IMPORT_SOURCE } from '../migrations/migration-request.ts';
import type { PlaylistReadService } from '../playlists/playlist-read.service.ts';
import { buildShareSnapshot, type ShareSnapshotLimits } from './share-snapshot.ts';
import { deleteEndedShares, insertShare, revokeShare, selectLiveShareSnapshot, selectSharesOfOwner } from './share.sql.ts';

/**
 * Playlist shares: the owner shares one playlist of an import record or of a connected account;
 * the engine keeps a bounded public snapshot of it and hands out a long random token, of which it
 * stores only a hash. Anyone with the token reads the snapshot until the owner revokes it or it
 * expires. Owner operations are scoped by owner; public reads only by token.
 */

/** 32 random bytes, base64url: 43 characters. */
const TOKEN_BYTES = 32;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Shares listed per owner; older ones are still readable and revocable by token. */
export const MAX_LISTED_SHARES = 500;

export type ShareStatus = 'active' | 'revoked' | 'expired';

export interface ShareSummary {
  id: string;
  name: string;
  trackCount: number;
  sourceProvider: string | null;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  status: ShareStatus;
}

export interface NewShare {
  sourceProvider: string;
  sourceAccountId: string;
  playlistId: string;
  /** Hours until the share stops answering; null: until revoked. */
  expiresInHours: number | null;
}

export class ShareError extends Error {
  readonly reason: 'not_found';
  constructor(reason: 'not_found', message: string) {
    super(message);
    this.name = 'ShareError';
    this.reason = reason;
  }
}

export function hashShareToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

function toDate(value: unknown): Date {
  return value instanceof Date ? value : new Date(String(value));
}

function summaryOf(row: Record<string, unknown>, now: Date): ShareSummary {
  const expiresAt = row.expires_at === null || row.expires_at === undefined ? null : toDate(row.expires_at);
  const revokedAt = row.revoked_at === null || row.revoked_at === undefined ? null : toDate(row.revoked_at);
  return {
    id: String(row.id),
    name: typeof row.name === 'string' ? row.name : '',
    trackCount: Number(row.track_count ?? 0),
    sourceProvider: (row.source_provider as string | null) ?? null,
    createdAt: toDate(row.created_at),
    expiresAt,
    revokedAt,
    status: revokedAt ? 'revoked' : expiresAt && expiresAt <= now ? 'expired' : 'active',
  };
}

interface Dependencies {
  execute: SqlExecutor;
  imports: Pick<ImportRecordService, 'get'>;
  playlists: Pick<PlaylistReadService, 'read'>;
  connections: Pick<ConnectionService, 'get'>;
  limits: ShareSnapshotLimits;
  schemaBaseUrl: string;
}

export class ShareService {
  readonly #deps: Dependencies;

  constructor(deps: Dependencies) {
    this.#deps = deps;
  }

  get limits(): Readonly<ShareSnapshotLimits> {
    return this.#deps.limits;
  }

  async create(ownerId: string, request: NewShare): Promise<{ share: ShareSummary; token: string }> {
    const { playlist, sourceProvider } = await this.#source(ownerId, request);
    const snapshot = buildShareSnapshot(playlist, { sourceProvider, schemaBaseUrl: this.#deps.schemaBaseUrl, limits: this.#deps.limits });
    const token = randomBytes(TOKEN_BYTES).toString('base64url');
    const rows = await this.#deps.execute(
      insertShare({
        id: randomUUID(),
        ownerId,
        tokenHash: hashShareToken(token),
        snapshot: snapshot.bundle,
        name: snapshot.name,
        trackCount: snapshot.trackCount,
        sourceProvider: request.sourceProvider,
        expiresAt: request.expiresInHours === null ? null : new Date(Date.now() + request.expiresInHours * 3_600_000),
      }),
    );
    return { share: summaryOf(rows[0]!, new Date()), token };
  }

  async list(ownerId: string): Promise<ShareSummary[]> {
    const now = new Date();
    return (await this.#deps.execute(selectSharesOfOwner(ownerId, MAX_LISTED_SHARES))).map((row) => summaryOf(row, now));
  }

  /** Revokes by share id or by token; revoking twice is harmless. Another owner's share reads as absent. */
  async revoke(ownerId: string, idOrToken: string): Promise<ShareSummary> {
    const key = UUID.test(idOrToken) ? { id: idOrToken.toLowerCase() } : { tokenHash: hashShareToken(idOrToken) };
    const row = (await this.#deps.execute(revokeShare(ownerId, key)))[0];
    if (!row) throw new ShareError('not_found', 'No such share exists for this owner.');
    return summaryOf(row, new Date());
  }

  /** The public snapshot of a live share, or null (unknown, revoked or expired: indistinguishable). */
  async publicSnapshot(token: string): Promise<Record<string, unknown> | null> {
    if (token.length > 200) return null;
    const row = (await this.#deps.execute(selectLiveShareSnapshot(hashShareToken(token))))[0];
    if (!row) return null;
    const snapshot = typeof row.snapshot === 'string' ? (JSON.parse(row.snapshot) as unknown) : row.snapshot;
    return snapshot !== null && typeof snapshot === 'object' ? (snapshot as Record<string, unknown>) : null;
  }

  /** Deletes shares that ended (revoked or expired) before `before`; returns how many went. */
  async purgeEnded(before: Date, batchSize: number): Promise<number> {
    return (await this.#deps.execute(deleteEndedShares(before, batchSize))).length;
  }

  async #source(ownerId: string, request: NewShare): Promise<{ playlist: Playlist; sourceProvider: string | null }> {
    if (request.sourceProvider === IMPORT_SOURCE) {
      const record = await this.#deps.imports.get(ownerId, request.sourceAccountId);
      const playlist = record.playlists[importCollectionIds(record.playlists).indexOf(request.playlistId)];
      if (!playlist) throw new ShareError('not_found', `Import ${request.sourceAccountId} has no playlist ${request.playlistId.slice(0, 100)}.`);
      return { playlist, sourceProvider: null };
    }
    const account = await this.#deps.connections.get(ownerId, request.sourceAccountId);
    if (account.provider !== request.sourceProvider) {
      throw new ShareError('not_found', `Account ${request.sourceAccountId} is not a ${request.sourceProvider.slice(0, 40)} account of this owner.`);
    }
    const view = await this.#deps.playlists.read(ownerId, account.id, request.playlistId);
    return { playlist: view.playlist, sourceProvider: account.provider };
  }
}
