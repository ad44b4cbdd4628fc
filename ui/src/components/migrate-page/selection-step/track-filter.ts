import type { PlaylistTrack } from '../../../api/playlists.ts';

/** Lower case without accents, so "beyonce" finds "Beyoncé" and "MOTORHEAD" finds "Motörhead". */
function folded(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLocaleLowerCase('en');
}

/**
 * The indexes of the tracks whose title, artist or album hold every word of `query` (in any
 * order, accents and case ignored); every index when the query is blank. A playlist of thousands
 * of tracks is searched rather than scrolled through a page at a time.
 */
export function matchingTracks(tracks: readonly Pick<PlaylistTrack, 'title' | 'artist' | 'album'>[], query: string): number[] {
  const words = folded(query).split(/\s+/).filter((word) => word !== '');
  const indexes: number[] = [];
  tracks.forEach((track, index) => {
    if (words.length === 0) {
      indexes.push(index);
      return;
    }
    const text = folded(`${track.title} ${track.artist} ${track.album ?? ''}`);
    if (words.every((word) => text.includes(word))) indexes.push(index);
  });
  return indexes;
}

/**
 * A playlist's chosen track keys after ticking (`checked`) or unticking `changed`, in the
 * playlist's order. `current` is what was chosen before.
 */
export function chooseTracks(all: readonly string[], current: ReadonlySet<string>, changed: readonly string[], checked: boolean): string[] {
  const next = new Set(current);
  for (const key of changed) {
    if (checked) next.add(key);
    else next.delete(key);
  }
  return all.filter((key) => next.has(key));
}
