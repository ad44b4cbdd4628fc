/** A share recipient's way in: `POST /api/public/shares/{token}/recipient` and leaving (`DELETE /api/public/share-session`). */

export const SHARE_SESSION_PATH = '/api/public/share-session';

export function joinSharePath(token: string): string {
  return `/api/public/shares/${encodeURIComponent(token)}/recipient`;
}

export function publicSharePath(token: string): string {
  return `/api/public/shares/${encodeURIComponent(token)}`;
}

/** The UI's page of a share for its recipient: `#/copy/{token}` (linked from the public share page). */
export function copyShareHash(token: string): string {
  return `#/copy/${encodeURIComponent(token)}`;
}

export interface SharePreview {
  readonly name: string;
  readonly trackCount: number;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The public snapshot's playlist name and size; undefined when it has not the documented shape. */
export function parseSharePreview(body: unknown): SharePreview | undefined {
  const playlist = isRecord(body) && Array.isArray(body['playlists']) ? (body['playlists'][0] as unknown) : undefined;
  if (!isRecord(playlist) || typeof playlist['name'] !== 'string' || !Array.isArray(playlist['tracks'])) return undefined;
  return { name: playlist['name'], trackCount: playlist['tracks'].length };
}

/** The recipient's copy of the shared playlist: an import record to migrate. */
export interface RecipientCopy {
  readonly importId: string;
  readonly collectionId: string;
}

export function parseJoined(body: unknown): RecipientCopy | undefined {
  if (!isRecord(body) || typeof body['import_id'] !== 'string' || !Array.isArray(body['collection_ids'])) return undefined;
  const collection = body['collection_ids'][0] as unknown;
  return typeof collection === 'string' ? { importId: body['import_id'], collectionId: collection } : undefined;
}
