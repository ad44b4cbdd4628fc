import type { Capability, Track } from '@opl/plugin-sdk';
import { normalizeText } from '../../matching/index.ts';
import { isLinkOnly, linksOf, namedLinks } from '../matching/index.ts';
import type { LoadedSource, SourceCollection } from './migration-source.ts';

/**
 * The server-side preflight of a migration: what the target cannot take (refused outright, even
 * when a client skips the UI), and what deserves a second look before anything is written (the
 * safe defaults, a same-name target playlist with completely different songs, the provider's
 * daily quota). Warnings answer 409 until the user resubmits with `acknowledge_warnings=true`.
 */

export const SAFE_DEFAULTS = {
  playlistsPerJob: 1,
  selectedTracksPerJob: 50,
  targetTracksPerDay: 250,
  secondsBetweenJobs: 120,
} as const;

export interface MigrationWarning {
  code: 'too_many_playlists' | 'too_many_tracks' | 'daily_target_limit' | 'jobs_too_close' | 'same_name_different_songs' | 'quota_limited' | 'links_for_another_service';
  message: string;
  [detail: string]: string;
}

export interface SelectionSummary {
  playlists: number;
  tracks: number;
  saved_albums: number;
  followed_artists: number;
  /** Entries that will be reported as not migratable (episodes, videos, local files). */
  unsupported: number;
}

export interface UnsupportedTarget {
  entity: 'playlists' | 'liked_tracks' | 'saved_albums' | 'followed_artists';
  missing: Capability[];
  message: string;
}

export function selectionSummary(source: LoadedSource): SelectionSummary {
  const tracks = source.collections.flatMap((collection) => collection.tracks);
  return {
    playlists: source.collections.length,
    tracks: tracks.length,
    saved_albums: source.albums.length,
    followed_artists: source.artists.length,
    unsupported: tracks.filter((track) => !track.is_migratable).length,
  };
}

/**
 * What the target cannot receive, by entity: each is a hard refusal. Only the kinds of what is
 * selected matter, so a caller that knows them before loading the source can ask as well.
 */
export function unsupportedTargets(source: { readonly collections: readonly Pick<SourceCollection, 'kind'>[]; readonly albums: readonly unknown[]; readonly artists: readonly unknown[] }, target: { displayName: string; capabilities: readonly Capability[] }): UnsupportedTarget[] {
  const has = new Set(target.capabilities);
  const needs = (entity: UnsupportedTarget['entity'], required: Capability[], what: string): UnsupportedTarget[] => {
    const missing = required.filter((capability) => !has.has(capability));
    return missing.length === 0 ? [] : [{ entity, missing, message: `${target.displayName} cannot receive ${what} (missing ${missing.join(', ')}).` }];
  };
  return [
    ...(source.collections.some((collection) => collection.kind === 'PLAYLIST') ? needs('playlists', ['CREATE_PLAYLIST', 'ADD_TRACKS'], 'playlists') : []),
    ...(source.collections.some((collection) => collection.kind === 'LIKED_TRACKS') ? needs('liked_tracks', ['WRITE_LIBRARY'], 'liked songs into its own liked library') : []),
    ...(source.albums.length > 0 ? needs('saved_albums', ['WRITE_SAVED_ALBUMS'], 'saved albums') : []),
    ...(source.artists.length > 0 ? needs('followed_artists', ['WRITE_FOLLOWED_ARTISTS'], 'followed artists') : []),
  ];
}

export interface PreflightFacts {
  summary: SelectionSummary;
  /** Tracks already written to the target in the last 24 h, or on their way there. */
  targetTracksToday: number;
  /** Seconds since the owner's previous migration was created, if any. */
  secondsSinceLastJob: number | null;
  /** Same-name target playlists whose songs share nothing with the selection. */
  conflictingTargets: { collection: string; targetPlaylistId: string }[];
  /** How many more songs the target's provider quota allows today, when it has a daily quota. */
  quotaTracksFitToday: number | null;
  quotaResetsAt: string | null;
  /** Selected songs that are only links to other services (see `linksForAnotherService`), with the target's display name. */
  linksElsewhere?: LinksElsewhere & { targetName: string };
}

export interface LinksElsewhere {
  count: number;
  /** The services the links name, in code-unit order. */
  providers: string[];
}

/** What the target's plugin can do with a link-only song (see `linksForAnotherService`). */
export interface TargetLinkFacts {
  provider: string;
  /** The target searches by ISRC: a song with only an ISRC is still searchable. */
  searchesIsrc: boolean;
  /** The links (`linksOf`) its `validateUri` takes as one of its tracks. */
  takes: ReadonlySet<string>;
  /** Services whose links the owner's connected accounts can look up (`SourceLookup`): the run learns what such a song is there. */
  readable?: ReadonlySet<string>;
}

/**
 * Migratable songs that are nothing but a link the target does not take: no title, artist, album
 * or ISRC the target searches by (`isLinkOnly`), and none of their links (`linksOf`) taken by the
 * target's `validateUri` as a track. The match service can neither name nor search them (they
 * end skipped, as it decides the same way), so the user hears it before starting. The services
 * are the links' provider keys, or for a web link a file kept its service
 * (`formatKit.songLinkService`), `web` when it has none. A song without any link is not counted:
 * it is not a link to anything; nor is one with a link of a service the owner's accounts can read
 * (`readable`), as the run looks it up there first.
 */
export function linksForAnotherService(tracks: readonly Track[], target: TargetLinkFacts): LinksElsewhere {
  const providers = new Set<string>();
  let count = 0;
  for (const track of tracks) {
    if (!track.is_migratable || !isLinkOnly(track, target.searchesIsrc)) continue;
    const services = linkServices(track);
    if (services.length === 0 || linksOf(track, target.provider).some((link) => target.takes.has(link))) continue;
    if (services.some((service) => service !== target.provider && target.readable?.has(service) === true)) continue;
    count += 1;
    for (const service of services) providers.add(service);
  }
  return { count, providers: [...providers].sort() };
}

/** The services a track's links belong to: its provider keys, then its kept web links' services. */
function linkServices(track: Track): string[] {
  return namedLinks(track).map(({ service }) => service ?? 'web');
}

export function preflightWarnings(facts: PreflightFacts): MigrationWarning[] {
  const warnings: MigrationWarning[] = [];
  const { summary } = facts;
  if (summary.playlists > SAFE_DEFAULTS.playlistsPerJob) {
    warnings.push({ code: 'too_many_playlists', message: `This migration moves ${summary.playlists} collections; the safe default is ${SAFE_DEFAULTS.playlistsPerJob} per job.`, count: String(summary.playlists), limit: String(SAFE_DEFAULTS.playlistsPerJob) });
  }
  if (summary.tracks > SAFE_DEFAULTS.selectedTracksPerJob) {
    warnings.push({ code: 'too_many_tracks', message: `This migration moves ${summary.tracks} tracks; the safe default is ${SAFE_DEFAULTS.selectedTracksPerJob} per job.`, count: String(summary.tracks), limit: String(SAFE_DEFAULTS.selectedTracksPerJob) });
  }
  const today = facts.targetTracksToday + summary.tracks;
  if (summary.tracks > 0 && today > SAFE_DEFAULTS.targetTracksPerDay) {
    warnings.push({ code: 'daily_target_limit', message: `With this migration the target account gets ${today} tracks within 24 hours; the safe default is ${SAFE_DEFAULTS.targetTracksPerDay} per day.`, count: String(today), limit: String(SAFE_DEFAULTS.targetTracksPerDay) });
  }
  if (facts.secondsSinceLastJob !== null && facts.secondsSinceLastJob < SAFE_DEFAULTS.secondsBetweenJobs) {
    const seconds = Math.max(0, Math.floor(facts.secondsSinceLastJob));
    warnings.push({ code: 'jobs_too_close', message: `The previous migration started ${seconds} s ago; the safe default is ${SAFE_DEFAULTS.secondsBetweenJobs} s between jobs.`, seconds: String(seconds), limit: String(SAFE_DEFAULTS.secondsBetweenJobs) });
  }
  for (const conflict of facts.conflictingTargets) {
    warnings.push({
      code: 'same_name_different_songs',
      message: `The target already has a playlist named "${conflict.collection}" with completely different songs; the migration adds to a new or matching playlist, never replaces it, but check that this is the account you mean.`,
      playlist: conflict.collection,
      target_playlist_id: conflict.targetPlaylistId,
    });
  }
  if (facts.quotaTracksFitToday !== null && summary.tracks > facts.quotaTracksFitToday) {
    warnings.push({
      code: 'quota_limited',
      message: `The target provider's daily quota allows about ${facts.quotaTracksFitToday} more songs today; the rest wait for the quota to reset${facts.quotaResetsAt ? ` at ${facts.quotaResetsAt}` : ''}.`,
      fit_today: String(facts.quotaTracksFitToday),
      ...(facts.quotaResetsAt ? { resets_at: facts.quotaResetsAt } : {}),
    });
  }
  const links = facts.linksElsewhere;
  if (links !== undefined && links.count > 0) {
    const one = links.count === 1;
    const services = links.providers.filter((provider) => provider !== 'web');
    const named = [...services, ...(links.providers.includes('web') ? [one ? 'a web page' : 'web pages'] : [])].join(' or ');
    const instead = services.length > 0 ? `Migrate ${one ? 'it' : 'them'} to ${services.join(' or ')} instead, or add titles and artists to the file.` : 'Add titles and artists to the file.';
    warnings.push({
      code: 'links_for_another_service',
      message: `${links.count} of the selected songs ${one ? 'is only a link' : 'are only links'} to ${named}, with no title or artist: ${links.targetName} cannot be searched for ${one ? 'it' : 'them'}, so ${one ? 'it' : 'they'} will be skipped. ${instead}`,
      count: String(links.count),
      providers: links.providers.join(','),
    });
  }
  return warnings;
}

/** A comparison key of a song: normalised title and first artist (ISRCs compare on their own). */
export function songKey(track: Pick<Track, 'title' | 'artist'>): string {
  const title = normalizeText(track.title).tokens.join(' ');
  const artist = normalizeText(track.artist.split(/,|&| feat\.? | ft\.? /i)[0] ?? '').tokens.join(' ');
  return `${title}|${artist}`;
}

/** Whether two track lists share at least one song (by ISRC or by normalised title and artist). */
export function songsOverlap(a: readonly Track[], b: readonly Track[]): boolean {
  const isrcs = new Set(a.map((track) => track.isrc?.toUpperCase()).filter((isrc): isrc is string => Boolean(isrc)));
  const keys = new Set(a.map(songKey));
  return b.some((track) => (track.isrc && isrcs.has(track.isrc.toUpperCase())) || keys.has(songKey(track)));
}

/** Playlist names compare without case and surrounding space. */
export function sameName(a: string, b: string): boolean {
  return a.trim().toLocaleLowerCase() === b.trim().toLocaleLowerCase();
}
