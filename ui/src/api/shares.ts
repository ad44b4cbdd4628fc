/**
 * The share endpoints (`/api/shares`): create a public, read-only share of one playlist, list the
 * owner's shares, revoke one. Parsed into camelCase, with the words the pages use. Pure: no I/O.
 */

import type { Problem } from './problem.ts';

export const SHARES_PATH = '/api/shares';

export function sharePath(idOrToken: string): string {
  return `${SHARES_PATH}/${encodeURIComponent(idOrToken)}`;
}

export type ShareStatus = 'active' | 'revoked' | 'expired';

export interface Share {
  readonly id: string;
  readonly name: string;
  readonly trackCount: number;
  readonly sourceProvider: string | null;
  readonly status: ShareStatus;
  readonly createdAt: string;
  readonly expiresAt: string | null;
  readonly revokedAt: string | null;
}

export interface CreatedShare extends Share {
  readonly token: string;
  /** The public page; paste it into an engine's URL import to bring the playlist in. */
  readonly url: string;
  readonly jsonUrl: string;
}

/** What `POST /api/shares` needs to share one playlist of an import record. */
export function importShareRequest(importId: string, playlistId: string, expiresInHours: number | null): Record<string, unknown> {
  return { source_provider: 'import', source_account_id: importId, playlist_id: playlistId, ...(expiresInHours === null ? {} : { expires_in_hours: expiresInHours }) };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const isString = (value: unknown): value is string => typeof value === 'string';
const nullableString = (value: unknown): string | null | undefined => (value === null ? null : isString(value) ? value : undefined);
const STATUSES: readonly string[] = ['active', 'revoked', 'expired'];

export function parseShare(value: unknown): Share | undefined {
  if (!isRecord(value)) return undefined;
  const { id, name, track_count: trackCount, status, created_at: createdAt } = value;
  const sourceProvider = nullableString(value['source_provider']);
  const expiresAt = nullableString(value['expires_at']);
  const revokedAt = nullableString(value['revoked_at']);
  if (!isString(id) || !isString(name) || typeof trackCount !== 'number' || !isString(status) || !STATUSES.includes(status) || !isString(createdAt)) return undefined;
  if (sourceProvider === undefined || expiresAt === undefined || revokedAt === undefined) return undefined;
  return { id, name, trackCount, sourceProvider, status: status as ShareStatus, createdAt, expiresAt, revokedAt };
}

export function parseCreatedShare(value: unknown): CreatedShare | undefined {
  const share = parseShare(value);
  if (!share || !isRecord(value)) return undefined;
  const { token, url, json_url: jsonUrl } = value;
  if (!isString(token) || !isString(url) || !isString(jsonUrl)) return undefined;
  return { ...share, token, url, jsonUrl };
}

export function parseShareList(body: unknown): Share[] | undefined {
  if (!isRecord(body) || !Array.isArray(body['shares'])) return undefined;
  const shares: Share[] = [];
  for (const item of body['shares']) {
    const share = parseShare(item);
    if (!share) return undefined;
    shares.push(share);
  }
  return shares;
}

export function statusLabel(status: ShareStatus): string {
  if (status === 'active') return 'Active';
  if (status === 'revoked') return 'Revoked';
  return 'Expired';
}

export function sourceProviderLabel(provider: string | null): string {
  if (provider === null || provider === 'import') return 'Import';
  return provider.charAt(0).toUpperCase() + provider.slice(1);
}

/** A refused share request in words, with what to do next. */
export function describeShareFailure(status: number, problem: Problem, body: unknown): { problem: Problem; nextSteps: string[] } {
  const extensions = isRecord(body) ? body : {};
  if (status === 422 && typeof extensions['max_tracks'] === 'number') {
    return {
      problem: { ...problem, title: 'This playlist is too long to share' },
      nextSteps: [`A share holds at most ${extensions['max_tracks'].toLocaleString('en')} tracks. Export the playlist as a file instead.`],
    };
  }
  if (status === 422 && typeof extensions['max_bytes'] === 'number') {
    return { problem: { ...problem, title: 'This playlist is too large to share' }, nextSteps: ['Export the playlist as a file instead.'] };
  }
  if (status === 404 || status === 410) {
    return { problem: { ...problem, title: 'The playlist is no longer there' }, nextSteps: ['Preview the source again, then share it.'] };
  }
  if (status === 0) return { problem, nextSteps: ['Check that the engine is running, then try again.'] };
  return { problem, nextSteps: status >= 500 ? ['Try again later.'] : [] };
}
