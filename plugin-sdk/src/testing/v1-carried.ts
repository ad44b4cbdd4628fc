import { isrcCode, sourceReference } from '../format-kit/field-values.ts';
import { trackSourceUri } from '../format-kit/source-uri.ts';
import { playlistSchema, type Playlist, type PlaylistInput, type Track, type TrackInput } from '../model.schema.ts';

/**
 * What a CSV or TXT v1 export carries of a playlist (SPEC "Export file columns"), as its reader
 * gives it back: the eight playlist columns (`artwork_uri`, else `photo`) and, per track, the 14
 * track columns — ids, names, album, whole-second duration, ISRC, one source URI, artwork, added
 * date, media type and reason, source position — with `is_local` and `is_migratable` following
 * from the media type and reason, and the position in the list as `position`. The ISRC is read in
 * its compact form and the source URI filed under its provider when it names one, through the
 * SDK's one reading of those cells. `text` is what the format does to a text value (TXT turns
 * tabs and line breaks into spaces; both turn a lone surrogate into U+FFFD). An empty cell is
 * absent. For round-trip tests: `parse(serialize(x))` must equal `v1Carried(x, …)`.
 */
export function v1Carried(playlist: Playlist, sourceProvider: string | null, text: (value: string) => string): Playlist {
  const cell = (value: string | null): string | null => (value === null || value === '' ? null : text(value));
  const track = (item: Track, position: number): TrackInput => {
    const sourceUri = cell(trackSourceUri(item, sourceProvider));
    const reference = sourceUri === null ? null : sourceReference(sourceUri.trim());
    const reason = cell(item.unsupported_reason);
    return {
      id: cell(item.id),
      title: text(item.title),
      artist: text(item.artist),
      album: cell(item.album),
      duration_s: item.duration_s === null ? null : Math.round(item.duration_s),
      isrc: item.isrc === null ? null : (isrcCode(text(item.isrc), 'isrc').value ?? null),
      artwork_uri: cell(item.artwork_uri),
      provider_uris: reference?.kind === 'provider' ? { [reference.provider]: reference.uri } : {},
      metadata: sourceUri !== null && reference?.kind !== 'provider' ? { source_uri: sourceUri } : {},
      media_type: item.media_type,
      is_local: item.media_type === 'local_file',
      is_migratable: reason === null,
      unsupported_reason: reason,
      position,
      source_position: item.source_position,
      source_item_id: cell(item.source_item_id),
      added_at: item.added_at,
    };
  };
  return playlistSchema.parse({
    id: cell(playlist.id),
    name: text(playlist.name),
    description: cell(playlist.description),
    kind: playlist.kind,
    owner_id: cell(playlist.owner_id),
    artwork_uri: cell(playlist.artwork_uri ?? playlist.photo),
    created_at: playlist.created_at,
    updated_at: playlist.updated_at,
    tracks: playlist.tracks.map(track),
  } satisfies PlaylistInput);
}
