import type { NewItem } from './migration-jobs.sql.ts';
import type { LoadedSource } from './migration-source.ts';

/**
 * The items of a new job, one per source entry in source order: tracks of each collection, then
 * saved albums, then followed artists. Entries no target can hold (episodes, videos, local files)
 * are items too, skipped with their reason, so the report shows every entry of the source.
 */

/** Lossy entries keep their reason: episodes, videos, local files and folders are reported, not dropped. */
const NOT_MIGRATABLE = 'Not migratable';

export function itemsOf(source: LoadedSource): NewItem[] {
  const items: NewItem[] = [];
  for (const collection of source.collections) {
    for (const track of collection.tracks) {
      const unsupported = !track.is_migratable || track.media_type === 'episode' || track.media_type === 'local_file' || track.is_local;
      items.push({
        entityType: 'track',
        status: unsupported ? 'skipped' : 'pending',
        sourcePlaylistId: collection.id,
        sourcePlaylistName: collection.name,
        position: track.position,
        title: track.title,
        artist: track.artist,
        album: track.album,
        durationS: track.duration_s,
        releaseYear: track.release_year,
        explicit: track.explicit,
        isrc: track.isrc,
        sourceEntityId: track.id,
        sourceEntityName: track.title,
        sourceTrackId: track.id,
        sourceItemId: track.source_item_id,
        sourceUri: track.provider_uris[source.provider] ?? Object.values(track.provider_uris)[0] ?? null,
        sourceMetadata: track,
        reason: unsupported ? `${NOT_MIGRATABLE}: ${track.unsupported_reason ?? (track.is_local ? 'a local file' : `a ${track.media_type}`)}.` : null,
      });
    }
  }
  source.albums.forEach((album, index) => {
    items.push({
      entityType: 'album',
      status: 'pending',
      sourcePlaylistId: null,
      sourcePlaylistName: null,
      position: index,
      title: album.title,
      artist: album.artists.join(', '),
      album: null,
      durationS: null,
      releaseYear: album.release_year,
      explicit: null,
      isrc: null,
      sourceEntityId: album.id,
      sourceEntityName: album.title,
      sourceTrackId: null,
      sourceItemId: album.source_item_id,
      sourceUri: album.provider_uris[source.provider] ?? null,
      sourceMetadata: album,
      reason: null,
    });
  });
  source.artists.forEach((artist, index) => {
    items.push({
      entityType: 'artist',
      status: 'pending',
      sourcePlaylistId: null,
      sourcePlaylistName: null,
      position: index,
      title: artist.name,
      artist: artist.name,
      album: null,
      durationS: null,
      releaseYear: null,
      explicit: null,
      isrc: null,
      sourceEntityId: artist.id,
      sourceEntityName: artist.name,
      sourceTrackId: null,
      sourceItemId: artist.source_item_id,
      sourceUri: artist.provider_uris[source.provider] ?? null,
      sourceMetadata: artist,
      reason: null,
    });
  });
  return items;
}
