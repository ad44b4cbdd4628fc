import { AuthExpired, ProviderError, RateLimited, type Album, type Artist, type Track } from '@opl/plugin-sdk';
import { normalizeText, parseStrictness, titleSimilarity, type Strictness } from '../../matching/index.ts';
import { sourceKeyOf, type MatchService, type RankedCandidate, type ResolveRequest } from '../matching/index.ts';
import type { ItemMatch } from './migration-jobs.sql.ts';
import { selectDecisions } from './migration-jobs.sql.ts';
import { selectDecisionsOf } from './item-decisions.sql.ts';
import type { Execute } from './migration-store.ts';
import { linkAsks, type LinkLookup } from './source-lookup.ts';
import { SKIPPED_BEFORE } from './migration-outcome.ts';

/**
 * Phase 3.5 of a migration: find each item's target. Tracks go through the match service (graph
 * first, then search and local scoring); albums and artists are searched and compared by name.
 * A remembered review decision for the same source entity answers first, after the target
 * adapter confirmed that the chosen URI is still one of its own. Provider trouble during a search
 * is thrown as the typed error, never recorded as "no match". A song that is only a link of
 * another service, with nothing to search by, is first read from that service with the owner's
 * account when one can (`lookup`, see `SourceLookup`), and searched for as it is listed there.
 */


export interface TargetCalls {
  searchAlbums(query: { title: string; artist: string | null; upc: string | null }): Promise<Album[]>;
  searchArtists(name: string): Promise<Artist[]>;
  /** null when the adapter has no URI validation. `entity` is what the URI names (track, album, artist…). */
  validateUri(uri: string): Promise<{ valid: boolean; id: string | null; entity?: string | null } | null>;
}

export interface MatchContext {
  ownerId: string;
  sourceProvider: string;
  targetProvider: string;
  targetPluginId: string;
  targetAccountId: string;
  strictness: Strictness;
  execute: Execute;
  matching: Pick<MatchService, 'resolve'> & Partial<Pick<MatchService, 'prefetch'>>;
  target: TargetCalls;
  /** Reads what a link-only song is from its own service (`SourceLookup`), when the owner can. */
  lookup?: LinkLookup;
}

/** A source entity's key in remembered review decisions: provider-qualified. */
export function decisionKey(sourceProvider: string, entityType: string, metadata: Record<string, unknown>): string {
  if (entityType === 'track') return `${sourceProvider}|${sourceKeyOf(metadata as unknown as Track)}`;
  const id = typeof metadata['id'] === 'string' ? metadata['id'] : null;
  const name = typeof metadata['title'] === 'string' ? metadata['title'] : typeof metadata['name'] === 'string' ? metadata['name'] : '';
  return id ? `${sourceProvider}|id:${id}` : `${sourceProvider}|name:${normalizeText(name).tokens.join(' ')}`;
}

export function decisionScopes(targetAccountId: string): string[] {
  return [`account:${targetAccountId}`, 'provider'];
}

export interface CandidateView {
  id: string | null;
  uri: string | null;
  title: string;
  artist: string;
  album: string | null;
  duration_s: number | null;
  score: number;
  reason: string;
  /** The target's full entity, so a confirmation can teach the identity graph. */
  entity: Record<string, unknown>;
}

function candidateViews(candidates: readonly RankedCandidate[], provider: string): CandidateView[] {
  return candidates.slice(0, 5).map((candidate) => ({
    id: candidate.track.id,
    uri: candidate.track.provider_uris[provider] ?? null,
    title: candidate.track.title,
    artist: candidate.track.artist,
    album: candidate.track.album,
    duration_s: candidate.track.duration_s,
    score: Math.round(candidate.score * 1000) / 1000,
    reason: candidate.reason,
    entity: candidate.track,
  }));
}

/** Remembered decisions read ahead for a slice of songs (`prefetchMatches`), by decision key; each used once. */
const decisionsAhead = new WeakMap<MatchContext, Map<string, Record<string, unknown>[]>>();

/**
 * Reads ahead, for a slice of items about to be matched, what matching each song first asks the
 * database: remembered review decisions (one statement) and the match service's graph, no-match
 * and denial lookups (`MatchService.prefetch`, three statements). Matching then needs no database
 * round trip for a song the graph knows, and none before the search for one it does not.
 */
export async function prefetchMatches(context: MatchContext, rows: readonly { entity_type?: unknown; source_metadata?: unknown }[]): Promise<void> {
  const tracks = rows.filter((row) => String(row.entity_type) === 'track').map((row) => row.source_metadata as Track);
  if (tracks.length === 0) return;
  const keys = tracks.map((track) => decisionKey(context.sourceProvider, 'track', track as unknown as Record<string, unknown>));
  const found = await context.execute(selectDecisionsOf(context.ownerId, context.targetProvider, decisionScopes(context.targetAccountId), 'track', keys));
  const byKey = new Map<string, Record<string, unknown>[]>(keys.map((key) => [key, []]));
  for (const row of found) byKey.get(String(row['source_key']))?.push(row);
  decisionsAhead.set(context, byKey);
  await context.matching.prefetch?.(tracks.map((source) => resolveRequest(context, source)));
}

async function rememberedDecision(context: MatchContext, entityType: string, metadata: Record<string, unknown>): Promise<ItemMatch | null> {
  const key = decisionKey(context.sourceProvider, entityType, metadata);
  const scopes = decisionScopes(context.targetAccountId);
  const ahead = entityType === 'track' ? decisionsAhead.get(context) : undefined;
  const prefetched = ahead?.get(key);
  ahead?.delete(key);
  // Every scope in one query; the narrowest scope that has a usable decision still wins.
  const found = prefetched ?? (await context.execute(selectDecisions(context.ownerId, context.targetProvider, scopes, entityType, key)));
  for (const scope of scopes) {
    const decision = found.find((row) => row['scope'] === scope);
    if (!decision) continue;
    if (decision['action'] === 'skip') {
      return { status: 'skipped', targetUri: null, targetId: null, confidence: null, reason: SKIPPED_BEFORE, candidates: null, matchDetail: { from: 'review_decision', scope } };
    }
    const uri = decision['chosen_target_uri'] as string | null;
    if (!uri) continue;
    const validated = await context.target.validateUri(uri);
    // Spec, jobs 5: a decision is reused only as the entity type it was made for.
    if (validated && (!validated.valid || (validated.entity && validated.entity !== entityType))) continue;
    return {
      status: 'matched',
      targetUri: uri,
      targetId: validated?.id ?? (decision['chosen_target_id'] as string | null),
      confidence: 1,
      reason: 'Your earlier review decision for this source.',
      candidates: null,
      matchDetail: { from: 'review_decision', scope },
    };
  }
  return null;
}

/** Rebuilds the typed error behind a "retry" resolution, so the runner pauses or waits correctly. */
function retryError(reason: string, type: string | undefined, retryAfterSeconds: number | null | undefined): Error {
  if (type === 'RateLimited') return new RateLimited(reason, retryAfterSeconds ?? null, RateLimited.parseQuota(reason));
  if (type === 'AuthExpired') return new AuthExpired(reason);
  return new ProviderError(reason);
}

function resolveRequest(context: MatchContext, source: Track): ResolveRequest {
  return {
    source,
    sourceProvider: context.sourceProvider,
    target: { provider: context.targetProvider, pluginId: context.targetPluginId, accountId: context.targetAccountId },
    strictness: parseStrictness(context.strictness),
    validate: (uri) => context.target.validateUri(uri),
  };
}

function resolveTrack(context: MatchContext, source: Track) {
  return context.matching.resolve(resolveRequest(context, source));
}

/** What the link's own service said a link-only song is (see `SourceLookup`), recorded in `match_detail.looked_up`. */
interface LookedUp {
  provider: string;
  uri: string;
  title: string;
  artist: string;
  album: string | null;
  isrc: string | null;
}

/**
 * A link-only source as its own service lists it: the names, ISRC and length of the catalogue's
 * track, the source's own links kept (and the service's URI added). Its links are asked in
 * `linkAsks` order; the first answer wins. Else why the services did not help, if any said:
 * they could not be asked, or they list the link as no song to migrate. Throws the `RateLimited`
 * of a service that only asked to slow down, when no link was answered otherwise.
 */
async function lookedUpSource(lookup: LinkLookup, source: Track, targetProvider: string): Promise<{ track: Track; lookedUp: LookedUp } | { failures: string[] }> {
  const asks = linkAsks(source, targetProvider);
  const failures: string[] = [];
  let slowDown: RateLimited | null = null;
  for (const { provider, uri } of asks) {
    const answer = await lookup.lookup(provider, uri);
    if (answer.retry) slowDown ??= answer.retry;
    if (answer.failure !== null) failures.push(answer.failure);
    const found = answer.track;
    if (found === null || (found.title.trim() === '' && found.artist.trim() === '')) continue;
    // The service says what it is, and it is no song to migrate (a non-music video, an episode):
    // nothing is searched for it.
    if (!found.is_migratable) {
      failures.push(`${provider} lists it as no song to migrate${found.unsupported_reason ? ` (${found.unsupported_reason.slice(0, 200)})` : ''}.`);
      continue;
    }
    const track: Track = {
      ...source,
      title: found.title,
      artist: found.artist,
      album: found.album,
      isrc: found.isrc ?? source.isrc,
      duration_s: found.duration_s ?? source.duration_s,
      explicit: found.explicit,
      provider_uris: { ...found.provider_uris, ...source.provider_uris },
    };
    return { track, lookedUp: { provider, uri, title: found.title, artist: found.artist, album: found.album, isrc: found.isrc } };
  }
  // No other link told what the song is, and a service only asked to slow down: the item stays
  // pending and the runner waits (Retry-After) and matches it again, as for the target's own 429.
  if (slowDown !== null) throw slowDown;
  return { failures };
}

export async function matchTrack(context: MatchContext, metadata: Record<string, unknown>): Promise<ItemMatch> {
  const remembered = await rememberedDecision(context, 'track', metadata);
  if (remembered) return remembered;
  const source = metadata as unknown as Track;
  let resolution = await resolveTrack(context, source);
  let lookedUp: LookedUp | null = null;
  // Nothing to search by: the link's own service may say what the song is.
  if (resolution.from === 'unsearchable' && context.lookup) {
    const found = await lookedUpSource(context.lookup, source, context.targetProvider);
    if ('failures' in found) {
      if (found.failures.length > 0) resolution = { ...resolution, reason: `${resolution.reason} ${found.failures.join(' ')}` };
    } else {
      lookedUp = found.lookedUp;
      const shown = `${found.lookedUp.artist} – ${found.lookedUp.title}`.slice(0, 300);
      const searched = await resolveTrack(context, found.track);
      resolution = { ...searched, reason: `Read from ${found.lookedUp.provider} as "${shown}": ${searched.reason}` };
    }
  }
  const detail = { from: resolution.from, searches: resolution.searches, breakdown: resolution.breakdown, penalties: resolution.penalties, ...(resolution.edge ? { edge: resolution.edge } : {}), ...(lookedUp ? { looked_up: lookedUp } : {}) };
  const match = itemMatchOf(context, resolution, detail);
  return lookedUp === null ? match : { ...match, listed: { title: lookedUp.title, artist: lookedUp.artist, album: lookedUp.album, isrc: lookedUp.isrc } };
}

/** The item's match from the match service's resolution. */
function itemMatchOf(context: MatchContext, resolution: Awaited<ReturnType<typeof resolveTrack>>, detail: Record<string, unknown>): ItemMatch {
  switch (resolution.decision) {
    case 'retry':
      throw retryError(resolution.reason, resolution.error, resolution.retryAfterSeconds);
    case 'accept':
      return { status: 'matched', targetUri: resolution.chosen!.uri, targetId: resolution.chosen!.id, confidence: resolution.confidence, reason: resolution.reason, candidates: null, matchDetail: detail };
    case 'review':
      return {
        status: 'needs_review',
        targetUri: resolution.chosen?.uri ?? null,
        targetId: resolution.chosen?.id ?? null,
        confidence: resolution.confidence,
        reason: resolution.reason,
        candidates: candidateViews(resolution.candidates, context.targetProvider),
        matchDetail: detail,
      };
    case 'reject':
      return {
        status: resolution.candidates.length > 0 ? 'needs_review' : 'skipped',
        targetUri: null,
        targetId: null,
        confidence: resolution.candidates.length > 0 ? resolution.confidence : null,
        reason: resolution.candidates.length > 0 ? `No confident match: ${resolution.reason} Pick a candidate or skip.` : `No match found on ${context.targetProvider}: ${resolution.reason}`,
        candidates: resolution.candidates.length > 0 ? candidateViews(resolution.candidates, context.targetProvider) : null,
        matchDetail: detail,
      };
  }
}

const words = (text: string) => normalizeText(text);

/** Albums and artists: exact normalised names accept; close names wait for review. */
function nameScore(sourceName: string, candidateName: string, sourceArtists: readonly string[], candidateArtists: readonly string[]): number {
  const similarity = titleSimilarity(words(sourceName), words(candidateName));
  if (!similarity.sharedContent) return 0;
  if (sourceArtists.length === 0 || candidateArtists.length === 0) return similarity.value;
  const a = new Set(sourceArtists.map((name) => words(name).tokens.join(' ')));
  const artistAgrees = candidateArtists.some((name) => a.has(words(name).tokens.join(' ')));
  return artistAgrees ? similarity.value : similarity.value * 0.6;
}

const ENTITY_ACCEPT = 0.97;
const ENTITY_REVIEW = 0.6;

function entityMatch(
  provider: string,
  ranked: { entity: Album | Artist; score: number; title: string; artist: string }[],
  noun: string,
): ItemMatch {
  ranked.sort((a, b) => b.score - a.score);
  const best = ranked[0];
  const candidates = ranked.slice(0, 5).map((candidate) => ({
    id: candidate.entity.id,
    uri: candidate.entity.provider_uris[provider] ?? null,
    title: candidate.title,
    artist: candidate.artist,
    album: null,
    duration_s: null,
    score: Math.round(candidate.score * 1000) / 1000,
    reason: `Name similarity ${Math.round(candidate.score * 100)}%.`,
    entity: candidate.entity,
  }));
  if (best && best.score >= ENTITY_ACCEPT && (ranked[1]?.score ?? 0) < best.score) {
    return { status: 'matched', targetUri: best.entity.provider_uris[provider] ?? null, targetId: best.entity.id, confidence: best.score, reason: `Same ${noun} name${best.artist ? ' and artist' : ''}.`, candidates: null, matchDetail: { from: 'search' } };
  }
  if (best && best.score >= ENTITY_REVIEW) {
    return { status: 'needs_review', targetUri: best.entity.provider_uris[provider] ?? null, targetId: best.entity.id, confidence: best.score, reason: `Closest ${noun} is not an exact match; please check.`, candidates, matchDetail: { from: 'search' } };
  }
  return { status: 'skipped', targetUri: null, targetId: null, confidence: null, reason: `No ${noun} of this name found on ${provider}.`, candidates: null, matchDetail: { from: 'search' } };
}

export async function matchAlbum(context: MatchContext, metadata: Record<string, unknown>): Promise<ItemMatch> {
  const remembered = await rememberedDecision(context, 'album', metadata);
  if (remembered) return remembered;
  const album = metadata as unknown as Album;
  const found = await context.target.searchAlbums({ title: album.title, artist: album.artists[0] ?? null, upc: album.upc });
  const ranked = found.map((entity) => ({
    entity,
    score: album.upc && entity.upc && album.upc === entity.upc ? 1 : nameScore(album.title, entity.title, album.artists, entity.artists),
    title: entity.title,
    artist: entity.artists.join(', '),
  }));
  return entityMatch(context.targetProvider, ranked, 'album');
}

export async function matchArtist(context: MatchContext, metadata: Record<string, unknown>): Promise<ItemMatch> {
  const remembered = await rememberedDecision(context, 'artist', metadata);
  if (remembered) return remembered;
  const artist = metadata as unknown as Artist;
  const found = await context.target.searchArtists(artist.name);
  const ranked = found.map((entity) => ({ entity, score: nameScore(artist.name, entity.name, [], []), title: entity.name, artist: '' }));
  return entityMatch(context.targetProvider, ranked, 'artist');
}
