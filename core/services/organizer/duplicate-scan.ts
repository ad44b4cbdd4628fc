import type { Track } from '@opl/plugin-sdk';
import { decideMatch, normalizeText, parseTitle } from '../../matching/index.ts';

/**
 * Duplicate detection, read-only and pure: it proposes, it never selects, removes or edits.
 * - Playlist pairs: the same normalized name, compatible owners where the provider names them, and
 *   at least half of the smaller playlist's songs in common. Songs count as common by identity
 *   (ISRC or an identity-graph edge), so the same recording under two ids still counts.
 * - Entries inside one playlist: the same id, the same ISRC, or the same recording by the scorer
 *   (which never equates a live, remix, acoustic or other version with the original).
 */

export const MIN_OVERLAP = 0.5;

export function normalizePlaylistName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

export interface ScannedPlaylist {
  id: string;
  name: string;
  owner_id: string | null;
  owner_name: string | null;
  /** One identity key per entry (see identityKey). */
  keys: readonly string[];
}

/**
 * What makes two entries "the same song" for overlap: the identity-graph identity when the track
 * has an edge, else its ISRC, else its provider id.
 */
export function identityKey(track: Pick<Track, 'id' | 'isrc' | 'provider_uris'>, provider: string, identityOf: ReadonlyMap<string, string>): string {
  const viaGraph = track.id ? identityOf.get(track.id) : undefined;
  if (viaGraph) return `identity:${viaGraph}`;
  if (track.isrc) return `isrc:${track.isrc.toUpperCase()}`;
  return `id:${track.id ?? track.provider_uris[provider] ?? 'none'}`;
}

export interface CandidatePair {
  playlists: [{ id: string; name: string; track_count: number }, { id: string; name: string; track_count: number }];
  normalized_name: string;
  overlap: number;
  shared_songs: number;
  /** Why the pair is a candidate, in words. */
  evidence: string[];
}

export function candidatePairs(playlists: readonly ScannedPlaylist[]): CandidatePair[] {
  const byName = new Map<string, ScannedPlaylist[]>();
  for (const playlist of playlists) {
    const key = normalizePlaylistName(playlist.name);
    byName.set(key, [...(byName.get(key) ?? []), playlist]);
  }
  const pairs: CandidatePair[] = [];
  for (const [name, group] of byName) {
    for (let i = 0; i < group.length; i++) {
      for (let j = i + 1; j < group.length; j++) {
        const pair = comparePair(name, group[i]!, group[j]!);
        if (pair) pairs.push(pair);
      }
    }
  }
  return pairs.sort((a, b) => b.overlap - a.overlap || a.normalized_name.localeCompare(b.normalized_name));
}

function comparePair(name: string, a: ScannedPlaylist, b: ScannedPlaylist): CandidatePair | null {
  if (a.owner_id !== null && b.owner_id !== null && a.owner_id !== b.owner_id) return null;
  const smaller = Math.min(new Set(a.keys).size, new Set(b.keys).size);
  if (smaller === 0) return null;
  const inB = new Set(b.keys);
  const shared = new Set(a.keys.filter((key) => inB.has(key)));
  const overlap = shared.size / smaller;
  if (overlap < MIN_OVERLAP) return null;
  const viaIdentity = [...shared].filter((key) => key.startsWith('identity:') || key.startsWith('isrc:')).length;
  const evidence = [
    `Both are named “${name}” once case, accents and punctuation are ignored.`,
    a.owner_id !== null && b.owner_id !== null ? `Both belong to the same owner${a.owner_name ? ` (${a.owner_name})` : ''}.` : 'The provider does not name both owners, so ownership could not tell them apart.',
    `${shared.size} of the smaller playlist's ${smaller} songs are in both (${Math.round(overlap * 100)}%)${viaIdentity > 0 ? `; ${viaIdentity} of them recognised by ISRC or the identity graph, not only by equal ids` : ''}.`,
  ];
  return {
    playlists: [
      { id: a.id, name: a.name, track_count: a.keys.length },
      { id: b.id, name: b.name, track_count: b.keys.length },
    ],
    normalized_name: name,
    overlap,
    shared_songs: shared.size,
    evidence,
  };
}

export const DUPLICATE_LEVELS = ['same_id', 'same_isrc', 'same_recording'] as const;
export type DuplicateLevel = (typeof DUPLICATE_LEVELS)[number];

export interface DuplicateEntry {
  position: number;
  uri: string | null;
  entry_id: string | null;
  title: string;
  artist: string;
}

export interface DuplicateGroup {
  /** The copy the others duplicate (the first in the playlist). */
  original: DuplicateEntry;
  duplicates: (DuplicateEntry & { matched_by: DuplicateLevel; why: string })[];
}

/** Groups of repeated entries; each entry joins the first earlier entry it matches at one of `levels`. */
export function duplicateEntries(tracks: readonly Track[], provider: string, levels: readonly DuplicateLevel[]): DuplicateGroup[] {
  const entry = (track: Track, position: number): DuplicateEntry => ({ position, uri: track.provider_uris[provider] ?? null, entry_id: track.source_item_id, title: track.title, artist: track.artist });
  const groups = new Map<number, DuplicateGroup>();
  const bucketOf = (track: Track) => normalizeText(parseTitle(track.title, track.artists).base).tokens.join(' ');
  const originals: number[] = [];
  tracks.forEach((track, position) => {
    let match: { original: number; level: DuplicateLevel; why: string } | null = null;
    for (const original of originals) {
      const earlier = tracks[original]!;
      if (levels.includes('same_id') && track.id !== null && track.id === earlier.id) match = { original, level: 'same_id', why: 'the same song id' };
      else if (levels.includes('same_isrc') && track.isrc && earlier.isrc && track.isrc.toUpperCase() === earlier.isrc.toUpperCase()) match = { original, level: 'same_isrc', why: `the same ISRC (${track.isrc.toUpperCase()})` };
      else if (levels.includes('same_recording') && bucketOf(track) === bucketOf(earlier) && sameRecording(earlier, track, provider)) match = { original, level: 'same_recording', why: 'the same recording by title, artists, album and duration (a live, remix, acoustic or other version never counts)' };
      if (match) break;
    }
    if (!match) {
      originals.push(position);
      return;
    }
    const group = groups.get(match.original) ?? { original: entry(tracks[match.original]!, match.original), duplicates: [] };
    group.duplicates.push({ ...entry(track, position), matched_by: match.level, why: match.why });
    groups.set(match.original, group);
  });
  return [...groups.values()].sort((a, b) => a.original.position - b.original.position);
}

function sameRecording(a: Track, b: Track, provider: string): boolean {
  const decision = decideMatch(a, [b], { targetProvider: provider, strictness: 'same_recording' });
  return decision.decision === 'accept';
}

export type KeepPolicy = 'first' | 'last';

/** The entries a keep policy would remove: a proposal the user still has to select and confirm. */
export function proposedRemovals(groups: readonly DuplicateGroup[], keep: KeepPolicy): DuplicateEntry[] {
  return groups
    .flatMap((group) => {
      const all = [group.original, ...group.duplicates.map(({ matched_by: _level, why: _why, ...rest }) => rest)].sort((a, b) => a.position - b.position);
      return keep === 'first' ? all.slice(1) : all.slice(0, -1);
    })
    .sort((a, b) => a.position - b.position);
}
