import { seedCatalog, type SeedTrack } from '../seed-catalog.ts';

/**
 * Demo mode's playlist editing: the demo listener's own playlists can be changed from the demo
 * (one song added, removed or moved), so a newcomer sees a sync run do something. The change is
 * made in the fake's state exactly as the provider's own app would make it — the playlist's version
 * marker (Spotify snapshot id, TIDAL `lastModifiedAt`, Deezer checksum and `time_mod`, Apple
 * `lastModifiedDate`) moves and a new entry gets a new entry id (YouTube Music `setVideoId`) — so
 * the engine sees it through the provider's API like any other change.
 *
 * Each fake says only how its playlists hold entries; the choices are made here, alike for all:
 * - `add` appends the first song of the shared catalogue that this fake carries and the playlist
 *   lacks, preferring songs every provider carries (so the target of a sync finds it too);
 * - `remove` takes out the last song;
 * - `move` moves the last song to the top.
 */

export type DemoChange = 'add' | 'remove' | 'move';

/** What one demo edit changed. Positions are 0-based. */
export interface DemoEditOutcome {
  readonly change: DemoChange;
  readonly playlist_id: string;
  readonly title: string;
  readonly artist: string;
  /** Where the song was before (`remove`, `move`); null for `add`. */
  readonly from: number | null;
  /** Where the song is now (`add`, `move`); null for `remove`. */
  readonly to: number | null;
  readonly track_count: number;
  /** The provider's version marker before and after; null where it has none (YouTube Music). */
  readonly version_before: string | null;
  readonly version_after: string | null;
}

/** Why a demo edit was not made: the playlist is not the demo listener's own, or there is nothing to take. */
export class DemoEditRefused extends Error {
  readonly code: 'not_found' | 'nothing_to_change';

  constructor(code: 'not_found' | 'nothing_to_change', message: string) {
    super(message);
    this.name = 'DemoEditRefused';
    this.code = code;
  }
}

/** What a demo fake offers the engine: one change to one of the demo listener's playlists. */
export interface DemoPlaylistEditor {
  readonly demoEdit: (playlistId: string, change: DemoChange) => DemoEditOutcome;
}

/** How one fake keeps its playlists: the only part of a demo edit that differs between providers. */
export interface DemoPlaylistModel<P, E> {
  /** The playlist when the demo listener owns it (and may edit it); null otherwise. */
  find(playlistId: string): P | null;
  /** The playlist's entries, in order; edited in place. */
  entries(playlist: P): E[];
  /** The shared catalogue's key of an entry's song; null for what is not in it (an upload, a video). */
  seedKeyOf(entry: E): string | null;
  /** A new entry for a catalogue song; null when this fake's catalogue lacks it. */
  newEntry(playlist: P, seedKey: string): E | null;
  /** Records the write the way the provider does (version marker, modification time). */
  touch(playlist: P): void;
  version(playlist: P): string | null;
}

function songOf(key: string): { title: string; artist: string } {
  const catalog = seedCatalog();
  const track = catalog.tracks.get(key)!;
  return { title: track.title, artist: track.artistKeys.map((artistKey) => catalog.artists.get(artistKey)?.name ?? artistKey).join(', ') };
}

/** Catalogue songs in the order `add` offers them: those every provider carries first. */
function addCandidates(): SeedTrack[] {
  const music = [...seedCatalog().tracks.values()].filter((track) => track.mediaType === 'track');
  return [...music.filter((track) => !track.availableOn), ...music.filter((track) => track.availableOn)];
}

/** A demo editor over one fake's playlists. */
export function demoPlaylistEditor<P, E>(model: DemoPlaylistModel<P, E>): DemoPlaylistEditor {
  return {
    demoEdit: (playlistId, change) => {
      const playlist = model.find(playlistId);
      if (!playlist) throw new DemoEditRefused('not_found', 'The demo can change only the demo listener\'s own playlists.');
      const entries = model.entries(playlist);
      const versionBefore = model.version(playlist);
      const done = (key: string, from: number | null, to: number | null): DemoEditOutcome => {
        model.touch(playlist);
        return { change, playlist_id: playlistId, ...songOf(key), from, to, track_count: entries.length, version_before: versionBefore, version_after: model.version(playlist) };
      };
      if (change === 'add') {
        const present = new Set(entries.map((entry) => model.seedKeyOf(entry)));
        for (const track of addCandidates()) {
          if (present.has(track.key)) continue;
          const entry = model.newEntry(playlist, track.key);
          if (!entry) continue;
          entries.push(entry);
          return done(track.key, null, entries.length - 1);
        }
        throw new DemoEditRefused('nothing_to_change', 'This playlist already holds every song of the demo catalogue.');
      }
      // Remove and move take the last song the catalogue knows (a video or an upload has no title to announce).
      const last = entries.map((entry, index) => ({ key: model.seedKeyOf(entry), index })).findLast((candidate) => candidate.key !== null);
      if (!last || (change === 'move' && (entries.length < 2 || last.index === 0))) throw new DemoEditRefused('nothing_to_change', `This playlist has no song to ${change}.`);
      const [entry] = entries.splice(last.index, 1);
      if (change === 'remove') return done(last.key!, last.index, null);
      entries.unshift(entry!);
      return done(last.key!, last.index, 0);
    },
  };
}
