import type { OrganizerSection } from '@opl/plugin-sdk/schemas';
import { LIKED_PLAYLIST_ID } from '../playlists/playlist-read.service.ts';
import { availability, confirmationPhrase, MAX_SONG_REMOVALS_PER_JOB, relationOf, type OrganizerAction, type PlaylistRelation } from './organizer-actions.ts';
import { OrganizerError } from './organizer-errors.ts';
import { confirmOwnership, readFull, readHeader, type OrganizerReadDeps } from './organizer-reads.ts';
import type { PreflightRequest } from './organizer-request.ts';
import { entryKey, expectedAfterRemoval, sequenceHash, sequenceOf, unselectedCopies, type SequenceEntry } from './playlist-sequence.ts';

/**
 * The preflight: what a job on this selection would do, resolved server-side with live reads. It
 * refuses the whole selection when any part is unsupported (a liked collection, an action the
 * provider's manifest does not offer, a playlist whose ownership is not confirmed, entries that
 * are not where the client says), and never turns a requested safe removal into a deletion.
 */

export interface PlannedRemoval {
  position: number;
  uri: string;
  entry_id: string | null;
  title: string;
  artist: string;
}

export interface PlanWarning {
  code: string;
  message: string;
  positions: number[];
}

export interface PlannedPlaylist {
  playlist_id: string;
  name: string;
  relation: PlaylistRelation;
  action: OrganizerAction;
  /** What happens at the provider, in words. */
  effect: string;
  ownership: { check: string; evidence: string } | null;
  snapshot_id: string | null;
  track_count: number | null;
  removals: PlannedRemoval[] | null;
  warnings: PlanWarning[];
  /** Song removal: the sequence the preflight saw and its hash, and the hash of the exact sequence expected after. */
  baseline: SequenceEntry[] | null;
  baseline_hash: string | null;
  expected_hash: string | null;
}

export interface Plan {
  action: OrganizerAction;
  identify_by: string | null;
  removes_every_occurrence: boolean;
  positional_insert: boolean;
  playlists: PlannedPlaylist[];
}

export interface ProviderOrganizer {
  provider: string;
  displayName: string;
  section: OrganizerSection;
  /** The plugin declares ADD_TRACKS: an undo can at least append what was removed. */
  addsTracks: boolean;
}

interface Refusal {
  playlist_id: string;
  reason: string;
}

function refuse(refusals: Refusal[]): never {
  const detail = refusals.length === 1 ? refusals[0]!.reason : `${refusals.length} of the selected playlists cannot take this action: ${refusals.map((refusal) => refusal.reason).join(' ')}`;
  throw new OrganizerError('organizer_unsupported', detail, { playlists: refusals });
}

export async function buildPlan(deps: OrganizerReadDeps, ownerId: string, provider: ProviderOrganizer, request: PreflightRequest): Promise<Plan> {
  const { section } = provider;
  const songs = section.remove_songs;
  const base = {
    action: request.action,
    identify_by: songs.available ? songs.identify_by : null,
    removes_every_occurrence: songs.available ? songs.removes_every_occurrence : false,
    positional_insert: songs.available ? songs.positional_insert : false,
  };
  if (request.action === 'remove_tracks') return { ...base, playlists: [await planSongRemoval(deps, ownerId, provider, request)] };
  const refusals: Refusal[] = [];
  const planned: PlannedPlaylist[] = [];
  for (const playlistId of request.playlist_ids) {
    const outcome = await planPlaylistAction(deps, ownerId, provider, request.account_id, playlistId, request.action);
    if ('reason' in outcome) refusals.push(outcome);
    else planned.push(outcome);
  }
  if (refusals.length > 0) refuse(refusals);
  return { ...base, playlists: planned };
}

async function planPlaylistAction(deps: OrganizerReadDeps, ownerId: string, provider: ProviderOrganizer, accountId: string, playlistId: string, action: 'unfollow_playlist' | 'delete_playlist'): Promise<PlannedPlaylist | Refusal> {
  const liked = { playlist_id: playlistId, reason: 'Liked and saved-song collections are not ordinary playlists: the organizer never removes or deletes them.' };
  if (playlistId === LIKED_PLAYLIST_ID) return liked;
  const deletion = provider.section.permanent_delete;
  let ownership: PlannedPlaylist['ownership'] = null;
  let header;
  if (action === 'delete_playlist' && deletion.available) {
    const confirmed = await confirmOwnership(deps, ownerId, accountId, playlistId, deletion.ownership_check);
    if (confirmed.state === 'absent') return { playlist_id: playlistId, reason: `${provider.displayName} has no playlist ${playlistId} (already removed?).` };
    if (confirmed.state === 'not_owned') {
      if (confirmed.playlist && confirmed.playlist.kind !== 'PLAYLIST') return liked;
      return { playlist_id: playlistId, reason: `“${confirmed.playlist?.name ?? playlistId}” cannot be deleted permanently: its ownership is not confirmed (${confirmed.evidence}).` };
    }
    ownership = { check: deletion.ownership_check, evidence: confirmed.evidence };
    header = confirmed.playlist;
  } else {
    header = await readHeader(deps, ownerId, accountId, playlistId);
    if (!header) return { playlist_id: playlistId, reason: `${provider.displayName} has no playlist ${playlistId} (already removed?).` };
  }
  const allowed = availability(provider.section, provider.displayName, header, action);
  if (!allowed.available) return { playlist_id: playlistId, reason: `“${header.name}”: ${allowed.reason}` };
  const relation = action === 'delete_playlist' ? 'owned' : relationOf(header);
  if (relation === 'unknown') return { playlist_id: playlistId, reason: `“${header.name}”: ${provider.displayName} did not say whose playlist this is, so it is left alone.` };
  return {
    playlist_id: playlistId,
    name: header.name,
    relation,
    action,
    effect:
      action === 'delete_playlist'
        ? `Deletes “${header.name}” permanently from ${provider.displayName}, for everyone who follows it.`
        : `Removes “${header.name}” from your ${provider.displayName} library; the playlist itself stays on ${provider.displayName}.`,
    ownership,
    snapshot_id: header.snapshot_id,
    track_count: header.track_count,
    removals: null,
    warnings: allowed.note ? [{ code: 'provider_note', message: allowed.note, positions: [] }] : [],
    baseline: null,
    baseline_hash: null,
    expected_hash: null,
  };
}

async function planSongRemoval(deps: OrganizerReadDeps, ownerId: string, provider: ProviderOrganizer, request: Extract<PreflightRequest, { action: 'remove_tracks' }>): Promise<PlannedPlaylist> {
  const songs = provider.section.remove_songs;
  const playlistId = request.playlist_id;
  if (!songs.available) refuse([{ playlist_id: playlistId, reason: songs.reason }]);
  if (playlistId === LIKED_PLAYLIST_ID) refuse([{ playlist_id: playlistId, reason: 'Liked and saved-song collections are not ordinary playlists: the organizer never removes songs from them.' }]);
  const limit = Math.min(MAX_SONG_REMOVALS_PER_JOB, songs.max_entries_per_job);
  if (request.entries.length > limit) refuse([{ playlist_id: playlistId, reason: `${provider.displayName} removes at most ${limit} selected entries per job; ${request.entries.length} were selected.` }]);
  const playlist = await readFull(deps, ownerId, request.account_id, playlistId);
  if (!playlist) refuse([{ playlist_id: playlistId, reason: `${provider.displayName} has no playlist ${playlistId} (already removed?).` }]);
  const allowed = availability(provider.section, provider.displayName, playlist, 'remove_tracks');
  if (!allowed.available) refuse([{ playlist_id: playlistId, reason: `“${playlist.name}”: ${allowed.reason}` }]);
  const relation = relationOf(playlist);
  if (relation === 'unknown') refuse([{ playlist_id: playlistId, reason: `“${playlist.name}”: ${provider.displayName} did not say whose playlist this is, so its songs are left alone.` }]);

  const baseline = sequenceOf(playlist.tracks, provider.provider);
  const removals: PlannedRemoval[] = [];
  const wrong: string[] = [];
  for (const entry of [...request.entries].sort((a, b) => a.position - b.position)) {
    const track = playlist.tracks[entry.position];
    if (!track) {
      wrong.push(`position ${entry.position} is past the end of the playlist (${playlist.tracks.length} entries)`);
      continue;
    }
    const uri = entryKey(track, provider.provider);
    if (uri !== entry.uri) wrong.push(`position ${entry.position} holds ${uri.startsWith('opl:unlinked:') ? 'an entry without a link' : uri}, not ${entry.uri}`);
    else if (entry.entry_id !== null && entry.entry_id !== track.source_item_id) wrong.push(`the entry at position ${entry.position} has another entry id than the one selected`);
    else if (songs.identify_by === 'entry_id' && !track.source_item_id) wrong.push(`${provider.displayName} did not give the entry at position ${entry.position} an id, so it cannot be removed alone`);
    else removals.push({ position: entry.position, uri, entry_id: track.source_item_id, title: track.title, artist: track.artist });
  }
  if (wrong.length > 0) refuse([{ playlist_id: playlistId, reason: `The selection does not match “${playlist.name}” as it is now: ${wrong.join('; ')}. Reload the playlist and select again.` }]);

  const positions = new Set(removals.map((removal) => removal.position));
  const warnings: PlanWarning[] = allowed.note ? [{ code: 'provider_note', message: allowed.note, positions: [] }] : [];
  const copies = unselectedCopies(baseline, positions);
  if (copies.length > 0 && songs.removes_every_occurrence) {
    if (!songs.positional_insert) refuse([{ playlist_id: playlistId, reason: `${provider.displayName} removes every copy of a song, and ${copies.length} unselected cop${copies.length === 1 ? 'y' : 'ies'} of the selected songs would go too; it cannot put them back where they were.` }]);
    warnings.push({
      code: 'unselected_copies_put_back',
      message: `${provider.displayName} removes every copy of a song it is asked to remove. ${copies.length} unselected cop${copies.length === 1 ? 'y' : 'ies'} (position${copies.length === 1 ? '' : 's'} ${copies.join(', ')}) will be put back where ${copies.length === 1 ? 'it was' : 'they were'} right after; ${copies.length === 1 ? 'its' : 'their'} “added” date becomes today.`,
      positions: copies,
    });
  } else if (copies.length > 0) {
    warnings.push({ code: 'unselected_copies_stay', message: `${copies.length} other cop${copies.length === 1 ? 'y' : 'ies'} of the selected songs (position${copies.length === 1 ? '' : 's'} ${copies.join(', ')}) stay in the playlist.`, positions: copies });
  }
  return {
    playlist_id: playlistId,
    name: playlist.name,
    relation,
    action: 'remove_tracks',
    effect: `Removes ${removals.length} selected entr${removals.length === 1 ? 'y' : 'ies'} from “${playlist.name}”; nothing else changes.`,
    ownership: null,
    snapshot_id: playlist.snapshot_id,
    track_count: playlist.tracks.length,
    removals,
    warnings,
    baseline,
    baseline_hash: sequenceHash(baseline),
    expected_hash: sequenceHash(expectedAfterRemoval(baseline, positions)),
  };
}

export function phraseFor(plan: Plan): string | null {
  const songCount = plan.playlists.reduce((sum, playlist) => sum + (playlist.removals?.length ?? 0), 0);
  return confirmationPhrase(plan.action, plan.playlists.map((playlist) => playlist.name), songCount);
}
