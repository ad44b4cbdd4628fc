import type { TrackInput } from '../model.schema.ts';
import { boundedText } from './field-values.ts';
import type { LocationKind } from './locations.ts';
import { LIMITS } from './model-limits.ts';

/**
 * A Spotify local-file location (`classifyLocation` kind `local_file`) names its track: its title,
 * artist, album and seconds fill what the playlist entry left empty (what the entry says wins).
 * Does nothing for any other kind of location.
 */
export function fillFromLocalFile(kind: LocationKind, track: TrackInput): void {
  if (kind.kind !== 'local_file') return;
  if (track.title === '') track.title = boundedText(kind.title, LIMITS.title).value;
  if (track.artist === '') track.artist = boundedText(kind.artist, LIMITS.title).value;
  if (kind.album !== '' && (track.album ?? '') === '') track.album = boundedText(kind.album, LIMITS.text).value;
  if (track.duration_s === undefined || track.duration_s === null) track.duration_s = kind.seconds;
}
