import { PluginError } from '@opl/plugin-sdk';
import type { ConnectionService } from '../connections/connection.service.ts';
import type { PlaylistReadService } from '../playlists/playlist-read.service.ts';
import { ExportError } from './export-error.ts';
import { EXPORT_SLICE_TRACKS, inSlices, PlaylistUnavailableError, selectedPlaylistIds, selectedTrackKeys, selectTracks, type ExportSelection, type ExportSource, type SourcePlaylist } from './export-source.ts';

export interface AccountExportDependencies {
  readonly connections: Pick<ConnectionService, 'get'>;
  /** The read path of `GET /api/playlists/{id}`: the account's credentials, the rate limiter, the cache. */
  readonly playlists: Pick<PlaylistReadService, 'list' | 'read' | 'readInSlices'>;
}

export interface AccountSourceRequest {
  ownerId: string;
  provider: string;
  accountId: string;
  selection: ExportSelection | undefined;
}

/**
 * A connected provider account as a live export source (SPEC "Export endpoints" rules 1, 3, 6, 7).
 * Playlists are read one at a time, when the export gets to them. A playlist the provider says is
 * missing (`NotFound`) or refuses to this account (`Unsupported`, its answer to a 403) becomes a
 * placeholder among several; an expired connection or a rate limit is thrown on unchanged, which
 * aborts the export at once. Liked songs are the collection `liked` when the provider has them.
 */
export async function accountExportSource(deps: AccountExportDependencies, request: AccountSourceRequest): Promise<ExportSource> {
  const account = await deps.connections.get(request.ownerId, request.accountId);
  if (account.provider !== request.provider) {
    throw new ExportError('unsupported_source', `Account ${request.accountId} is a ${account.provider} account, not ${request.provider.slice(0, 50)}; send source_provider "${account.provider}" (or "import" with an import record id).`, {
      account_provider: account.provider,
    });
  }
  let playlists: { id: string; name: string }[];
  if (request.selection) {
    playlists = selectedPlaylistIds(request.selection).map((id) => ({ id, name: id }));
  } else {
    // Everything the account has (liked songs first), bounded by OPL_EXPORT_MAX_PLAYLISTS before any track is read.
    const listed = await deps.playlists.list(request.ownerId, request.accountId);
    playlists = listed.playlists.flatMap((playlist) => (playlist.id === null ? [] : [{ id: playlist.id, name: playlist.name }]));
  }
  /** The name the account's playlist list shows (cached, so usually no provider call); null when unknown. */
  const listedName = async (id: string): Promise<string | null> => {
    const known = playlists.find((playlist) => playlist.id === id && playlist.name !== id);
    if (known) return known.name;
    try {
      const listed = await deps.playlists.list(request.ownerId, request.accountId);
      return listed.playlists.find((playlist) => playlist.id === id)?.name ?? null;
    } catch {
      // Only a label for the placeholder: a failing list must not turn one missing playlist into an abort.
      return null;
    }
  };
  return {
    sourceProvider: account.provider,
    archiveName: `${account.provider_display_name} ${account.display_name ?? account.account_label ?? ''}`.trim(),
    playlists,
    async read(id): Promise<SourcePlaylist> {
      const keys = selectedTrackKeys(request.selection, id);
      try {
        // Some tracks of it: they are picked from the whole playlist. All of it: a slice at a time, from the cache.
        if (keys !== undefined) return inSlices(id, selectTracks(id, (await deps.playlists.read(request.ownerId, request.accountId, id)).playlist, keys));
        const { playlist, slices } = await deps.playlists.readInSlices(request.ownerId, request.accountId, id, EXPORT_SLICE_TRACKS);
        return { id, playlist, slices, partial: null, warnings: [] };
      } catch (error) {
        if (error instanceof PluginError && error.type === 'NotFound') throw new PlaylistUnavailableError('not_found', error.message, await listedName(id));
        if (error instanceof PluginError && error.type === 'Unsupported') throw new PlaylistUnavailableError('denied', error.message, await listedName(id));
        throw error;
      }
    },
  };
}
