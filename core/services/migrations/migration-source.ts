import type { Album, Artist, Track } from '@opl/plugin-sdk';
import type { ConnectionService } from '../connections/connection.service.ts';
import { importCollectionIds, type ImportRecordService } from '../imports/index.ts';
import { eachPage, LIKED_PLAYLIST_ID, type PlaylistReadService } from '../playlists/playlist-read.service.ts';
import { GENERATED_SOURCE, IMPORT_SOURCE, selectedCollectionIds, selectedTrackKeys, type Selection } from './migration-request.ts';
import { playlistSnapshot, type PlaylistSnapshot } from './playlist-snapshot.ts';

/**
 * Phase 0–2 of a migration: access the source, import what the selection names, and narrow it to
 * the selected tracks. A provider source is read through the cached playlist reads; an import
 * source is the import record's normalised snapshot, so later changes to the original file or
 * link cannot alter what the job migrates.
 */

export interface SourceCollection {
  id: string;
  kind: 'PLAYLIST' | 'LIKED_TRACKS';
  name: string;
  description: string | null;
  /** The selected tracks, each with its 0-based position in the source collection. */
  tracks: Track[];
  /** How many tracks the whole collection has (for the selection summary). */
  totalTracks: number;
  /** The playlist's own fields as read (for history exports); absent where no playlist was read. */
  snapshot?: PlaylistSnapshot;
}

export interface LoadedSource {
  provider: string;
  collections: SourceCollection[];
  albums: Album[];
  artists: Artist[];
  /** A snapshot's library lineage UUID (restores only). */
  lineage?: string;
}

export interface SourceRef {
  ownerId: string;
  sourceKind: 'provider' | 'import' | 'generated' | 'snapshot';
  sourceProvider: string;
  sourceAccountId: string;
  /** The snapshot a restore reads (`snapshot` sources only). */
  sourceSnapshotId?: string | null;
}

export class SelectionError extends Error {
  readonly code: 'selection_empty' | 'selection_not_found';
  constructor(code: 'selection_empty' | 'selection_not_found', message: string) {
    super(message);
    this.name = 'SelectionError';
    this.code = code;
  }
}

/** A generator draft as a source: its approved tracks in draft order, or null when the owner has no such draft. */
export interface GeneratedSourceReader {
  approvedTracks(ownerId: string, draftId: string): Promise<{ name: string; tracks: Track[] } | null>;
}

/** A collection of a verified snapshot, as a restore reads it. */
export interface SnapshotCollectionSource {
  id: string;
  kind: 'PLAYLIST' | 'LIKED_TRACKS';
  name: string;
  description: string | null;
  /** Null when the collection could not be read when the snapshot was taken. */
  tracks: Track[] | null;
}

/**
 * A snapshot as a source (`source_kind = snapshot`): the archive is verified again and the
 * wanted collections read from it; null when the owner has no such snapshot with an archive.
 */
export interface SnapshotSourceReader {
  collections(ownerId: string, snapshotId: string, ids: readonly string[]): Promise<{ libraryId: string; collections: SnapshotCollectionSource[]; available: string[] } | null>;
}

interface Dependencies {
  readonly playlists: Pick<PlaylistReadService, 'read'>;
  readonly connections: Pick<ConnectionService, 'call'>;
  readonly imports: Pick<ImportRecordService, 'get'>;
  readonly drafts: GeneratedSourceReader;
  readonly snapshots: SnapshotSourceReader;
}

/** The key a track can be selected by: its entry id, its track id, or its position. */
function selectable(track: Track, position: number, keys: ReadonlySet<string>): boolean {
  return keys.has(`pos:${position}`) || (track.source_item_id !== null && keys.has(track.source_item_id)) || (track.id !== null && keys.has(track.id));
}

function narrow(tracks: readonly Track[], keys: readonly string[] | undefined): Track[] {
  const positioned = tracks.map((track, index) => ({ ...track, position: index }));
  if (!keys) return positioned;
  const wanted = new Set(keys);
  return positioned.filter((track, index) => selectable(track, index, wanted));
}

export class MigrationSources {
  readonly #deps: Dependencies;

  constructor(deps: Dependencies) {
    this.#deps = deps;
  }

  async load(source: SourceRef, selection: Selection): Promise<LoadedSource> {
    const ids = selectedCollectionIds(selection);
    if (ids.length === 0 && selection.saved_album_ids.length === 0 && selection.followed_artist_ids.length === 0) {
      throw new SelectionError('selection_empty', 'Select at least one playlist, track, saved album or followed artist.');
    }
    if (source.sourceKind === 'import') return this.#fromImport(source, selection, ids);
    if (source.sourceKind === 'generated') return this.#fromDraft(source, selection, ids);
    if (source.sourceKind === 'snapshot') return this.#fromSnapshot(source, selection, ids);
    const collections: SourceCollection[] = [];
    for (const id of ids) {
      const { playlist } = await this.#deps.playlists.read(source.ownerId, source.sourceAccountId, id);
      const keys = selectedTrackKeys(selection, id);
      const tracks = narrow(playlist.tracks, keys);
      if (keys && tracks.length === 0) throw new SelectionError('selection_not_found', `None of the selected tracks is in "${playlist.name}" any more; read the playlist again and reselect.`);
      collections.push({ id, kind: id === LIKED_PLAYLIST_ID || playlist.kind === 'LIKED_TRACKS' ? 'LIKED_TRACKS' : 'PLAYLIST', name: playlist.name, description: playlist.description, tracks, totalTracks: playlist.tracks.length, snapshot: playlistSnapshot(playlist) });
    }
    const albums = selection.saved_album_ids.length > 0 ? await this.#pick(source, 'listSavedAlbums', selection.saved_album_ids, 'saved album') : [];
    const artists = selection.followed_artist_ids.length > 0 ? await this.#pick(source, 'listFollowedArtists', selection.followed_artist_ids, 'followed artist') : [];
    return { provider: source.sourceProvider, collections, albums: albums as Album[], artists: artists as Artist[] };
  }

  async #fromImport(source: SourceRef, selection: Selection, ids: readonly string[]): Promise<LoadedSource> {
    if (selection.saved_album_ids.length > 0 || selection.followed_artist_ids.length > 0) {
      throw new SelectionError('selection_not_found', 'Imported files hold playlists only: they have no saved albums or followed artists.');
    }
    const record = await this.#deps.imports.get(source.ownerId, source.sourceAccountId);
    // Named by collection id (`importCollectionIds`): unique within the record, so every playlist can be selected.
    const collectionIds = importCollectionIds(record.playlists);
    const byId = new Map(record.playlists.map((playlist, index) => [collectionIds[index]!, playlist]));
    const collections = ids.map((id): SourceCollection => {
      const playlist = byId.get(id);
      if (!playlist) throw new SelectionError('selection_not_found', `The import has no playlist ${JSON.stringify(id)}; its playlists are ${[...byId.keys()].map((key) => JSON.stringify(key)).join(', ')}.`);
      const tracks = narrow(playlist.tracks, selectedTrackKeys(selection, id));
      return { id, kind: playlist.kind === 'LIKED_TRACKS' ? 'LIKED_TRACKS' : 'PLAYLIST', name: playlist.name, description: playlist.description, tracks, totalTracks: playlist.tracks.length, snapshot: playlistSnapshot(playlist) };
    });
    return { provider: IMPORT_SOURCE, collections, albums: [], artists: [] };
  }

  /** A restore reads only the snapshot: its archive is verified again before any collection of it is used. */
  async #fromSnapshot(source: SourceRef, selection: Selection, ids: readonly string[]): Promise<LoadedSource> {
    if (selection.saved_album_ids.length > 0 || selection.followed_artist_ids.length > 0) {
      throw new SelectionError('selection_not_found', 'Restoring saved albums or followed artists from a snapshot is not supported yet; select its playlists and liked tracks.');
    }
    const snapshotId = source.sourceSnapshotId ?? '';
    const read = await this.#deps.snapshots.collections(source.ownerId, snapshotId, ids);
    if (!read) throw new SelectionError('selection_not_found', `No snapshot ${snapshotId} with an archive exists for this owner.`);
    const collections = ids.map((id): SourceCollection => {
      const found = read.collections.find((collection) => collection.id === id);
      if (!found) throw new SelectionError('selection_not_found', `The snapshot has no collection ${JSON.stringify(id)}; its collections are ${read.available.map((key) => JSON.stringify(key)).join(', ')}.`);
      if (found.tracks === null) throw new SelectionError('selection_not_found', `"${found.name}" could not be read when the snapshot was taken, so it cannot be restored from it.`);
      const tracks = narrow(found.tracks, selectedTrackKeys(selection, id));
      return { id, kind: found.kind, name: found.name, description: found.description, tracks, totalTracks: found.tracks.length };
    });
    return { provider: source.sourceProvider, collections, albums: [], artists: [], lineage: read.libraryId };
  }

  /** A draft's approved tracks are target tracks already: each carries its URI on the draft's target. */
  async #fromDraft(source: SourceRef, selection: Selection, ids: readonly string[]): Promise<LoadedSource> {
    if (selection.saved_album_ids.length > 0 || selection.followed_artist_ids.length > 0 || ids.some((id) => id !== source.sourceAccountId)) {
      throw new SelectionError('selection_not_found', `A generated draft is one playlist: select it by its id (${source.sourceAccountId}).`);
    }
    const draft = await this.#deps.drafts.approvedTracks(source.ownerId, source.sourceAccountId);
    if (!draft) throw new SelectionError('selection_not_found', `No generated draft ${source.sourceAccountId} (it may have expired).`);
    const tracks = narrow(draft.tracks, selectedTrackKeys(selection, source.sourceAccountId));
    if (tracks.length === 0) throw new SelectionError('selection_empty', 'The draft has no approved track: approve at least one before confirming.');
    return { provider: GENERATED_SOURCE, collections: [{ id: source.sourceAccountId, kind: 'PLAYLIST', name: draft.name, description: null, tracks, totalTracks: draft.tracks.length }], albums: [], artists: [] };
  }

  async #pick(source: SourceRef, op: 'listSavedAlbums' | 'listFollowedArtists', ids: readonly string[], noun: string): Promise<(Album | Artist)[]> {
    const wanted = new Set(ids);
    const found = new Map<string, Album | Artist>();
    await eachPage(
      (cursor) => this.#deps.connections.call(source.ownerId, source.sourceAccountId, op, { cursor, limit: 50 }),
      (page) => {
        for (const entity of page.items as (Album | Artist)[]) {
          const key = [entity.id, entity.source_item_id].find((value) => value !== null && wanted.has(value));
          if (key && !found.has(key)) found.set(key, entity);
        }
      },
    );
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length > 0) throw new SelectionError('selection_not_found', `Not a ${noun} of this account any more: ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ` and ${missing.length - 5} more` : ''}.`);
    return ids.map((id) => found.get(id)!);
  }
}
