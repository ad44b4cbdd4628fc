import { importCollectionIds, type ImportRecordContents } from '../imports/index.ts';
import { ExportError } from './export-error.ts';
import { IMPORT_SOURCE_PROVIDER, inSlices, selectedPlaylistIds, selectedTrackKeys, selectTracks, type ExportSelection, type ExportSource, type SourcePlaylist } from './export-source.ts';

/**
 * The extension of a playlist file an import record may be named after (a file upload, a URL's
 * file): only that goes from the archive's name, not any dot (a record of posted JSON or pasted
 * text is named after its first playlist, e.g. "Now 2024.Vol2").
 */
const PLAYLIST_FILE_EXTENSION = /\.(txt|csv|tsv|m3u8?|pls|wpl|zpl|xspf|jspf|json|xml)$/i;

/**
 * An import record as an export source. Its playlists are named as `POST /api/migrations` names
 * them: by their collection ids (`importCollectionIds`: the playlist's own id, else its 0-based
 * index in the record, made unique when two playlists would share one). The record is already the
 * engine's stored snapshot, so every requested playlist is checked before anything is written and
 * an unknown id is a 422, never a placeholder.
 */
export function importExportSource(record: ImportRecordContents, selection: ExportSelection | undefined): ExportSource {
  const collectionIds = importCollectionIds(record.playlists);
  // Collection ids are unique within a record: each names exactly one playlist.
  const byId = new Map(record.playlists.map((playlist, index) => [collectionIds[index]!, playlist]));
  const ids = selection ? selectedPlaylistIds(selection) : [];
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
  // Without a selection, every playlist of the record in its order, also one whose own id an
  // earlier playlist has too (the same playlist exported twice into one file reads back as two).
  // Track selections are checked up front: a bad key fails before any file is written.
  const chosen: { id: string; picked: Pick<SourcePlaylist, 'playlist' | 'partial'> }[] = selection
    ? ids.map((id) => ({ id, picked: selectTracks(id, byId.get(id)!, selectedTrackKeys(selection, id)) }))
    : record.playlists.map((playlist, index) => ({ id: collectionIds[index]!, picked: { playlist, partial: null } }));
  return {
    sourceProvider: IMPORT_SOURCE_PROVIDER,
    archiveName: (record.name ?? '').replace(PLAYLIST_FILE_EXTENSION, ''),
    // Read by position in `chosen`: ids alone may repeat.
    playlists: chosen.map((entry, index) => ({ id: String(index), name: entry.picked.playlist.name })),
    async read(key): Promise<SourcePlaylist> {
      const entry = chosen[Number(key)]!;
      return inSlices(entry.id, entry.picked);
    },
  };
}
