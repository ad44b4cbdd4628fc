import type { OrganizerPlaylistRelation, OrganizerSection } from '@opl/plugin-sdk/schemas';
import type { Playlist } from '@opl/plugin-sdk';

/**
 * What the organizer may do with one playlist, decided only from the provider's manifest section
 * and what a read of the playlist reports: never from the provider's name.
 */

export const ORGANIZER_ACTIONS = ['unfollow_playlist', 'delete_playlist', 'remove_tracks'] as const;
export type OrganizerAction = (typeof ORGANIZER_ACTIONS)[number];

/** The most the organizer removes in one song-removal job, whatever a manifest says. */
export const MAX_SONG_REMOVALS_PER_JOB = 100;
/** Playlists one safe-removal or deletion job may name. */
export const MAX_PLAYLISTS_PER_JOB = 50;

export type PlaylistRelation = OrganizerPlaylistRelation | 'liked_collection' | 'unknown';

type PlaylistFacts = Pick<Playlist, 'kind' | 'is_owned' | 'collaborative'>;

export function relationOf(playlist: PlaylistFacts): PlaylistRelation {
  if (playlist.kind !== 'PLAYLIST') return 'liked_collection';
  if (playlist.is_owned === true) return 'owned';
  if (playlist.collaborative === true) return 'collaborative';
  if (playlist.is_owned === false) return 'followed';
  return 'unknown';
}

export interface ActionAvailability {
  available: boolean;
  /** Why not, in words for the user; null when available. */
  reason: string | null;
  /** What happens, when available (the manifest's note). */
  note: string | null;
}

const LIKED = 'Liked and saved-song collections are not ordinary playlists: the organizer never removes, deletes or edits them.';

function describe(relation: PlaylistRelation): string {
  switch (relation) {
    case 'owned':
      return 'your own playlist';
    case 'collaborative':
      return 'a collaborative playlist of someone else';
    case 'followed':
      return "someone else's playlist you follow";
    default:
      return 'a playlist whose owner the provider did not report';
  }
}

const PLURAL: Record<OrganizerPlaylistRelation, string> = { owned: 'your own playlists', collaborative: 'collaborative playlists', followed: "others' playlists you follow" };

function byRelation(relations: readonly OrganizerPlaylistRelation[], relation: PlaylistRelation, displayName: string, what: string): string | null {
  if (relation === 'unknown' || relations.includes(relation as OrganizerPlaylistRelation)) return null;
  return `${displayName} allows ${what} only for ${relations.map((each) => PLURAL[each]).join(' or ')}; this is ${describe(relation)}.`;
}

/**
 * Availability from a listing (which may not know ownership yet: a `live_read` check happens in
 * the preflight). The preflight calls this again with a live read and requires `available`.
 */
export function availability(section: OrganizerSection, displayName: string, playlist: PlaylistFacts, action: OrganizerAction): ActionAvailability {
  const relation = relationOf(playlist);
  if (relation === 'liked_collection') return { available: false, reason: LIKED, note: null };
  switch (action) {
    case 'unfollow_playlist': {
      const safe = section.safe_removal;
      if (!safe.available) return { available: false, reason: safe.reason, note: null };
      const refused = byRelation(safe.applies_to, relation, displayName, 'removing from the library');
      return refused ? { available: false, reason: refused, note: null } : { available: true, reason: null, note: safe.note };
    }
    case 'delete_playlist': {
      const deletion = section.permanent_delete;
      if (!deletion.available) return { available: false, reason: deletion.reason, note: null };
      if (relation !== 'owned' && relation !== 'unknown') return { available: false, reason: `Only playlists whose ownership is confirmed can be deleted permanently; this is ${describe(relation)}.`, note: null };
      return { available: true, reason: null, note: deletion.note };
    }
    case 'remove_tracks': {
      const songs = section.remove_songs;
      if (!songs.available) return { available: false, reason: songs.reason, note: null };
      const refused = byRelation(songs.applies_to, relation, displayName, 'removing songs');
      return refused ? { available: false, reason: refused, note: null } : { available: true, reason: null, note: songs.note };
    }
  }
}

const SECTION_OF = { unfollow_playlist: 'safe_removal', delete_playlist: 'permanent_delete', remove_tracks: 'remove_songs' } as const;

/** What the provider offers at all, from its manifest alone: an action it lacks is unavailable for every playlist, for one reason. */
export function providerActions(section: OrganizerSection): Record<OrganizerAction, ActionAvailability> {
  const entries = ORGANIZER_ACTIONS.map((action): [OrganizerAction, ActionAvailability] => {
    const offered = section[SECTION_OF[action]];
    return [action, offered.available ? { available: true, reason: null, note: offered.note } : { available: false, reason: offered.reason, note: null }];
  });
  return Object.fromEntries(entries) as Record<OrganizerAction, ActionAvailability>;
}

/** The typed phrase a job needs (null: none), compared exactly after Unicode normalization. */
export function confirmationPhrase(action: OrganizerAction, playlistNames: readonly string[], songCount: number): string | null {
  if (action === 'delete_playlist') return playlistNames.length === 1 ? playlistNames[0]! : `delete ${playlistNames.length} playlists`;
  if (action === 'remove_tracks') return songCount === 1 ? 'remove 1 song' : `remove ${songCount} songs`;
  return null;
}

export function phraseMatches(expected: string | null, typed: string | null | undefined): boolean {
  if (expected === null) return true;
  return typeof typed === 'string' && typed.normalize('NFC') === expected.normalize('NFC');
}
