import type { ImportRecordContents } from '../imports/index.ts';
import { ExportError } from './export-error.ts';
import { selectedPlaylistIds, selectTracks, type ExportSelection, type ExportSource, type SourcePlaylist } from './export-source.ts';

/**
 * An import record as an export source. Its playlists are named as `POST /api/migrations` names
 * them: the playlist's own id, else its 0-based index in the record ("0", "1", …). The record is
 * already the engine's stored snapshot, so every requested playlist is checked before anything is
 * written and an unknown id is a 422, never a placeholder.
 */
export function importCollectionId(playlistId: string | null, index: number): string {
  return playlistId ?? String(index);
}

export function importExportSource(record: ImportRecordContents, selection: ExportSelection | undefined): ExportSource {
  const byId = new Map(record.playlists.map((playlist, index) => [importCollectionId(playlist.id, index), playlist]));
  const ids = selection ? selectedPlaylistIds(selection) : [...byId.keys()];
  const missing = ids.filter((id) => !byId.has(id));
  if (missing.length > 0) {
    throw new ExportError(
      'invalid_selection',
      `Import ${record.id} has no playlist ${missing
        .slice(0, 5)
        .map((id) => JSON.stringify(id.slice(0, 100)))
        .join(', ')}${missing.length > 5 ? ` or ${missing.length - 5} more` : ''}; its playlists are ${[...byId.keys()]
        .slice(0, 20)
        .map((id) => JSON.stringify(id.slice(0, 100)))
        .join(', ')}${byId.size > 20 ? ', …' : ''}.`,
      { missing_playlist_ids: missing.slice(0, 100) },
    );
  }
  // Track selections are checked up front too: a bad key fails before any file is written.
  const chosen = new Map(ids.map((id) => [id, selectTracks(id, byId.get(id)!, selection?.tracks?.[id])]));
  return {
    sourceProvider: null,
    archiveName: (record.name ?? '').replace(/\.[A-Za-z0-9]{1,5}$/, ''),
    playlists: ids.map((id) => ({ id, name: byId.get(id)!.name })),
    async read(id): Promise<SourcePlaylist> {
      const picked = chosen.get(id)!;
      return { id, ...picked, warnings: [] };
    },
  };
}
