import { PluginError, type Playlist } from '@opl/plugin-sdk';
import { z } from 'zod';
import type { SqlExecute } from '../../storage/sql/executors.ts';
import type { ConnectionService } from '../connections/connection.service.ts';
import type { PlaylistReadService } from '../playlists/playlist-read.service.ts';
import { candidatePairs, DUPLICATE_LEVELS, duplicateEntries, identityKey, normalizePlaylistName, proposedRemovals, type CandidatePair, type DuplicateEntry, type DuplicateGroup, type ScannedPlaylist } from './duplicate-scan.ts';
import { selectIdentities } from './organizer.sql.ts';

/**
 * `POST /api/organizer/duplicates`: read-only scans. Playlists are read through the playlist
 * cache (by snapshot id), so a scan over fresh caches makes no provider call; only playlists
 * sharing a normalized name with another are read at all. The answer proposes; the user selects
 * the entries to remove and starts a song removal with its own preflight.
 */

export const duplicatesRequestSchema = z.discriminatedUnion('scope', [
  z
    .object({
      scope: z.literal('playlists'),
      account_id: z.uuid(),
      /** Limit the scan to these playlists; all the account's playlists when absent. */
      playlist_ids: z.array(z.string().min(1).max(500)).max(5_000).optional(),
    })
    .strict(),
  z
    .object({
      scope: z.literal('entries'),
      account_id: z.uuid(),
      playlist_id: z.string().min(1).max(500),
      levels: z.array(z.enum(DUPLICATE_LEVELS)).min(1).default(['same_id', 'same_isrc']),
      keep: z.enum(['first', 'last']).default('first'),
    })
    .strict(),
]);

export type DuplicatesRequest = z.output<typeof duplicatesRequestSchema>;

export type DuplicatesView =
  | { scope: 'playlists'; account_id: string; scanned: number; read: number; pairs: CandidatePair[]; skipped: { id: string; name: string; reason: string }[] }
  | { scope: 'entries'; account_id: string; playlist_id: string; name: string; snapshot_id: string | null; groups: DuplicateGroup[]; keep: 'first' | 'last'; proposed_removals: DuplicateEntry[] };

export interface DuplicateScanDeps {
  readonly execute: SqlExecute;
  readonly connections: Pick<ConnectionService, 'get'>;
  readonly playlists: Pick<PlaylistReadService, 'list' | 'read'>;
}

export async function scanDuplicates(deps: DuplicateScanDeps, ownerId: string, request: DuplicatesRequest): Promise<DuplicatesView> {
  const account = await deps.connections.get(ownerId, request.account_id);
  if (request.scope === 'entries') {
    const { playlist } = await deps.playlists.read(ownerId, request.account_id, request.playlist_id);
    const groups = duplicateEntries(playlist.tracks, account.provider, request.levels);
    return { scope: 'entries', account_id: request.account_id, playlist_id: request.playlist_id, name: playlist.name, snapshot_id: playlist.snapshot_id, groups, keep: request.keep, proposed_removals: proposedRemovals(groups, request.keep) };
  }
  const wanted = request.playlist_ids ? new Set(request.playlist_ids) : null;
  const summaries = (await deps.playlists.list(ownerId, request.account_id)).playlists.filter((playlist) => playlist.kind === 'PLAYLIST' && playlist.id !== null && (!wanted || wanted.has(playlist.id)));
  // Only a playlist with a same-named partner of a compatible owner can be in a pair: read just those.
  const groups = new Map<string, typeof summaries>();
  for (const summary of summaries) groups.set(normalizePlaylistName(summary.name), [...(groups.get(normalizePlaylistName(summary.name)) ?? []), summary]);
  const compatible = (a: (typeof summaries)[number], b: (typeof summaries)[number]) => a.owner_id === null || b.owner_id === null || a.owner_id === b.owner_id;
  const toRead = summaries.filter((summary) => groups.get(normalizePlaylistName(summary.name))!.some((other) => other !== summary && compatible(summary, other)));
  const read: { id: string; playlist: Playlist }[] = [];
  const skipped: { id: string; name: string; reason: string }[] = [];
  for (const summary of toRead) {
    try {
      read.push({ id: summary.id!, playlist: (await deps.playlists.read(ownerId, request.account_id, summary.id!)).playlist });
    } catch (error) {
      // A playlist the provider will not show its songs of is left out and named, not a failed scan.
      if (!(error instanceof PluginError) || (error.type !== 'Unsupported' && error.type !== 'NotFound')) throw error;
      skipped.push({ id: summary.id!, name: summary.name, reason: error.message.slice(0, 500) });
    }
  }
  const trackIds = [...new Set(read.flatMap(({ playlist }) => playlist.tracks.map((track) => track.id).filter((id): id is string => id !== null)))];
  const identityOf = new Map<string, string>();
  if (trackIds.length > 0) {
    for (const row of await deps.execute(selectIdentities(account.provider, trackIds, `account:${request.account_id}`))) identityOf.set(String(row['provider_track_id']), String(row['identity_id']));
  }
  const scanned: ScannedPlaylist[] = read.map(({ id, playlist }) => ({
    id,
    name: playlist.name,
    owner_id: playlist.owner_id,
    owner_name: playlist.owner_name,
    keys: playlist.tracks.map((track) => identityKey(track, account.provider, identityOf)),
  }));
  return { scope: 'playlists', account_id: request.account_id, scanned: summaries.length, read: read.length, pairs: candidatePairs(scanned), skipped };
}
