import { PluginError } from '@opl/plugin-sdk';
import type { SqlExecute, SqlStatement } from '../../storage/sql/executors.ts';
import { PlaylistLimitError, type PlaylistReadService, type PlaylistSummary } from '../playlists/playlist-read.service.ts';

/**
 * Refreshes one account's part of the workspace: its playlist list is read again, then only the
 * playlists that changed since their tracks were cached — by the provider's snapshot id where it
 * has one, else by its last-modified time, else by the track count — unless `full` asks for every
 * one. A liked collection has none of these, so it is read on every refresh. A playlist that cannot be read (gone meanwhile, refused) is reported and the rest go on; an
 * expired connection or a rate limit stops the refresh with the provider's error.
 */

export interface RefreshView {
  account_id: string;
  provider: string;
  playlists: number;
  /** Playlists whose tracks were read from the provider. */
  read: number;
  /** Playlists whose cached tracks were still current. */
  unchanged: number;
  failed: { playlist_id: string; name: string; error: string }[];
  fetched_at: string;
}

interface Dependencies {
  readonly execute: SqlExecute;
  readonly playlists: Pick<PlaylistReadService, 'list' | 'read'>;
}

function selectCachedVersions(ownerId: string, accountId: string): SqlStatement {
  return {
    text: `select substr(scope, 10) as playlist_id, snapshot_id, payload->>'updated_at' as updated_at,
                  coalesce(jsonb_array_length(case when jsonb_typeof(payload->'tracks') = 'array' then payload->'tracks' end), 0) as track_count
           from playlist_cache where owner_id = ? and provider_account_id = ? and starts_with(scope, 'playlist:')`,
    values: [ownerId, accountId],
  };
}

/** Whether cached tracks still describe the listed playlist. */
export function stillCurrent(summary: PlaylistSummary, cached: { snapshot_id: string | null; updated_at: string | null; track_count: number } | undefined): boolean {
  if (!cached) return false;
  if (summary.snapshot_id !== null && cached.snapshot_id !== null) return summary.snapshot_id === cached.snapshot_id;
  if (summary.updated_at !== null && cached.updated_at !== null) return summary.updated_at === cached.updated_at;
  return summary.track_count !== null && summary.track_count === cached.track_count;
}

export async function refreshAccount(deps: Dependencies, ownerId: string, accountId: string, full: boolean): Promise<RefreshView> {
  const list = await deps.playlists.list(ownerId, accountId, true);
  const cached = new Map(
    (await deps.execute(selectCachedVersions(ownerId, accountId))).map((row) => [
      String(row['playlist_id']),
      { snapshot_id: (row['snapshot_id'] as string | null) ?? null, updated_at: (row['updated_at'] as string | null) ?? null, track_count: Number(row['track_count']) },
    ]),
  );
  const view: RefreshView = { account_id: accountId, provider: list.provider, playlists: list.playlists.length, read: 0, unchanged: 0, failed: [], fetched_at: list.fetched_at };
  for (const summary of list.playlists) {
    if (!summary.id) continue;
    if (!full && stillCurrent(summary, cached.get(summary.id))) {
      view.unchanged += 1;
      continue;
    }
    try {
      await deps.playlists.read(ownerId, accountId, summary.id, true);
      view.read += 1;
    } catch (error) {
      if (error instanceof PlaylistLimitError || (error instanceof PluginError && (error.type === 'NotFound' || error.type === 'Unsupported' || error.type === 'InvalidInput'))) {
        view.failed.push({ playlist_id: summary.id, name: summary.name, error: error.message.slice(0, 300) });
        continue;
      }
      throw error;
    }
  }
  return view;
}
