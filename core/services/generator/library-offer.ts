import { createHash } from 'node:crypto';
import type { Track } from '@opl/plugin-sdk';
import { z } from 'zod';
import { parseTitle } from '../../matching/index.ts';
import type { GeneratorControls } from './generation-request.ts';

/**
 * Library-grounded generation: instead of naming songs freely, the model chooses among tracks the
 * listener already has (cached playlist reads of connected accounts, imports, snapshots). They are
 * offered as a capped, sampled list of local short ids (`t1`, `t2`, …) with title and artist: the
 * ids mean something only to this request and map back here, so no provider id is ever shown to the
 * model, nothing it answers can name a track that is not in the list, and nothing needs a search
 * unless the chosen track has no known id on the target.
 *
 * The sample is deterministic for a request's seed (recorded on the draft, so a generation can be
 * reproduced): tracks matching the seed artists or songs come first, the rest are ordered by a hash
 * of the seed and the track, and the first `LIBRARY_OFFER.maxOffered` are offered.
 */

export const LIBRARY_OFFER = {
  /** Tracks offered to the model: a list of this size with an `enum` of its ids fits the 8k context of small local models. */
  maxOffered: 200,
  /** Library tracks read to sample from (cached playlists and imports together). */
  maxScanned: 20_000,
  /** Most recent verified snapshots read (each archive is verified again, so reading is bounded). */
  maxSnapshots: 3,
  /** Characters of a title, artist or album shown to the model. */
  textChars: 120,
} as const;

export const librarySourcesSchema = z
  .object({
    connections: z.boolean().default(true).describe('Cached playlist reads of your connected accounts'),
    account_ids: z.array(z.uuid()).max(20).optional().describe('Only these connected accounts (all when absent)'),
    imports: z.boolean().default(true).describe('Your imported files and links'),
    snapshots: z.boolean().default(true).describe(`Your ${LIBRARY_OFFER.maxSnapshots} most recent snapshots`),
    seed: z.number().int().min(0).max(2_147_483_647).optional().describe('Sampling seed (a new one each request when absent; recorded on the draft)'),
  })
  .strict();

export type LibrarySources = z.output<typeof librarySourcesSchema>;

/** How a request is grounded: `open` (the model names any song; each is searched) or `library` (it chooses among offered tracks). */
export interface Grounding {
  mode: 'open' | 'library';
  sources: LibrarySources;
}

export const OPEN_GROUNDING: Grounding = { mode: 'open', sources: librarySourcesSchema.parse({}) };

/** One track of the listener's library, as read (its provider's ids and URIs included). */
export interface LibraryTrack {
  /** Where it came from: the provider name of a connected account, or `import`. */
  provider: string;
  origin: 'connection' | 'import' | 'snapshot';
  track: Track;
}

/** A library track as offered to the model: a local id and the words it sees. */
export interface OfferedTrack {
  id: string;
  title: string;
  artist: string;
  album: string | null;
  durationS: number | null;
  explicit: boolean | null;
  library: LibraryTrack;
}

const fold = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
// eslint-disable-next-line no-control-regex -- control characters are exactly what is removed here
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g;
const shown = (text: string) => text.replace(CONTROL, ' ').replace(/\s+/g, ' ').trim().slice(0, LIBRARY_OFFER.textChars);

/** The key two copies of one song share: its ISRC, else its folded title and artist. */
export function libraryKey(track: Pick<Track, 'isrc' | 'title' | 'artist'>): string {
  const isrc = track.isrc?.replace(/[^A-Za-z0-9]/g, '').toUpperCase();
  return isrc && isrc.length === 12 ? `isrc:${isrc}` : `song:${fold(track.title)}\u0000${fold(track.artist)}`;
}

function rank(seed: number, key: string): string {
  return createHash('sha256').update(`${seed}\u0000${key}`).digest('hex');
}

/** Whether a copy says more about the track (an id on its provider, an ISRC) than the one kept so far. */
const weight = (entry: LibraryTrack) => (entry.track.id ? 2 : 0) + (entry.track.isrc ? 1 : 0);

/**
 * The offered list: usable tracks (a title and an artist; the explicit preference honoured; none
 * of `exclude`), one copy of each song, seed matches first, then the seeded order, at most `cap`.
 */
export function sampleLibrary(tracks: readonly LibraryTrack[], controls: GeneratorControls, seed: number, options: { cap?: number; exclude?: ReadonlySet<string> } = {}): OfferedTrack[] {
  const cap = Math.max(0, Math.min(options.cap ?? LIBRARY_OFFER.maxOffered, LIBRARY_OFFER.maxOffered));
  const unique = new Map<string, LibraryTrack>();
  for (const entry of tracks) {
    const { track } = entry;
    if (shown(track.title) === '' || shown(track.artist) === '') continue;
    if (controls.explicit === 'exclude' && track.explicit === true) continue;
    if (controls.explicit === 'only' && track.explicit !== true) continue;
    const key = libraryKey(track);
    if (options.exclude?.has(key)) continue;
    const kept = unique.get(key);
    if (!kept || weight(entry) > weight(kept)) unique.set(key, entry);
  }
  const seedArtists = controls.seed_artists.map(fold).filter(Boolean);
  const seedSongs = controls.seed_tracks.map(fold).filter(Boolean);
  const seeded = (track: Track) => {
    const artist = fold(track.artist);
    // A copy may carry a version suffix the listener does not type ("… - Remastered 2011").
    const titles = new Set([fold(track.title), fold(parseTitle(track.title).base)]);
    // A seed song is named by its title alone, or by title and artist ("Song by Artist").
    return seedArtists.some((name) => artist.includes(name)) || seedSongs.some((song) => [...titles].some((title) => title !== '' && (song === title || (song.startsWith(`${title} `) && song.includes(artist)))));
  };
  const ordered = [...unique.entries()]
    .map(([key, entry]) => ({ entry, first: seeded(entry.track) ? 0 : 1, order: rank(seed, key) }))
    .sort((a, b) => a.first - b.first || (a.order < b.order ? -1 : a.order > b.order ? 1 : 0))
    .slice(0, cap);
  return ordered.map(({ entry }, index) => ({
    id: `t${index + 1}`,
    title: shown(entry.track.title),
    artist: shown(entry.track.artist),
    album: entry.track.album ? shown(entry.track.album) || null : null,
    durationS: entry.track.duration_s ?? null,
    explicit: entry.track.explicit ?? null,
    library: entry,
  }));
}

const length = (seconds: number) => `${Math.floor(seconds / 60)}:${String(Math.round(seconds % 60)).padStart(2, '0')}`;

/** The offered list as the model reads it: one line per track, `t3: Title — Artist (Album, 3:41)`. */
export function offeredLines(offered: readonly OfferedTrack[]): string {
  return offered
    .map((entry) => {
      const details = [entry.album, entry.durationS !== null ? length(entry.durationS) : null, entry.explicit === true ? 'explicit' : null].filter(Boolean).join(', ');
      return `${entry.id}: ${entry.title} — ${entry.artist}${details ? ` (${details})` : ''}`;
    })
    .join('\n');
}

/** A seed for a request that did not bring one. */
export function newSeed(): number {
  return Math.floor(Math.random() * 2_147_483_647);
}
