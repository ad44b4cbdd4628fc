import type { Track } from '@opl/plugin-sdk';
import { trackSchema } from '@opl/plugin-sdk/schemas';
import type { MatchService, MatchTarget, RankedCandidate, Resolution, ValidateTarget } from '../matching/index.ts';
import type { LibraryChoice } from './library-choices.ts';
import type { GeneratorControls } from './generation-request.ts';
import type { TrackIntent } from './track-intents.ts';

/**
 * Turns the model's song intents into real tracks of the target, through the target adapter's
 * search and the core match service (the same scoring a migration uses). Nothing the model names
 * is trusted as existing: a song the target does not have stays in the draft as unresolved, with
 * the reason, instead of vanishing. Two intents that land on the same target track, a track the
 * explicit preference excludes, and songs past the wished duration stay too, as removed with the
 * reason, so the user sees everything the model proposed and can bring any of it back.
 */

/** A scored result of the target's search, kept so the user can pick it instead (replace). */
export interface CandidateTrack {
  uri: string;
  id: string;
  title: string;
  artist: string;
  album: string | null;
  duration_s: number | null;
  isrc: string | null;
  explicit: boolean | null;
  confidence: number;
  /** The scorer's sentence, and its signals: why this candidate scored as it did. */
  reason: string;
  signals: { signal: string; value: number; weight: number; note: string }[];
}

export interface ResolvedIntent {
  intent: TrackIntent;
  status: 'resolved' | 'unresolved' | 'removed';
  /** Approved at once when the match service accepted it; a suggestion for review otherwise. */
  approved: boolean;
  target: { uri: string; id: string; title: string; artist: string; album: string | null; durationS: number | null; isrc: string | null; explicit: boolean | null } | null;
  confidence: number | null;
  reason: string;
  candidates: CandidateTrack[];
}

export interface ResolutionTotals {
  searches: number;
  /** Intents left out because they named a track already in the draft. */
  duplicates: number;
  /** Tracks left out by the explicit preference. */
  explicitFiltered: number;
  /** Resolved tracks left out because the wished duration was already filled. */
  durationTrimmed: number;
}

/** How many of the target's ranked results an item keeps for "replace". */
export const KEPT_CANDIDATES = 5;

/** The intent as the source track of a match: words only, no ids. */
export function intentAsTrack(intent: TrackIntent): Track {
  return trackSchema.parse({ title: intent.title, artist: intent.artist, artists: [intent.artist], album: intent.album, release_year: intent.release_year });
}

function chosenTrack(resolution: Resolution): Track | null {
  const uri = resolution.chosen?.uri;
  if (!resolution.chosen || !uri) return null;
  return resolution.chosen.track ?? resolution.candidates.find((candidate) => candidate.track.id === resolution.chosen!.id)?.track ?? null;
}

function candidateOf(provider: string, ranked: RankedCandidate): CandidateTrack | null {
  const uri = ranked.track.provider_uris[provider];
  if (!uri || !ranked.track.id) return null;
  const track = ranked.track;
  return {
    uri,
    id: track.id!,
    title: track.title,
    artist: track.artist,
    album: track.album,
    duration_s: track.duration_s,
    isrc: track.isrc,
    explicit: track.explicit,
    confidence: Math.max(0, Math.min(1, ranked.score)),
    reason: ranked.reason,
    signals: [...ranked.breakdown, ...ranked.penalties].map((signal) => ({ signal: signal.signal, value: signal.value, weight: signal.weight, note: signal.note })),
  };
}

export interface ResolveOptions {
  matching: Pick<MatchService, 'resolve'>;
  target: MatchTarget;
  controls: GeneratorControls;
  /** Target URIs already in the draft (kept items when only some slots are regenerated). */
  taken?: Iterable<string>;
  /** The target adapter's URI check: a library track that names a target track is taken without a search. */
  validate?: ValidateTarget;
  /** Cancelling the generation aborts a search in flight. */
  signal?: AbortSignal;
}

/** Resolves one intent; `seen` holds the URIs already taken (updated when this one takes a track). */
export function resolveIntent(intent: TrackIntent, options: ResolveOptions, seen: Set<string>, totals: ResolutionTotals): Promise<ResolvedIntent> {
  return resolveSource(intent, intentAsTrack(intent), 'generated', null, options, seen, totals);
}

/**
 * Library-grounded mode: resolves a track the listener has, with what is known of it (its ids,
 * ISRC and URIs as read). The match service takes it as it takes a migration's source track: the
 * very target track when the library track names one, else the identity graph (its own edge or its
 * ISRC: no search), and a search only when neither knows a target id. A graph answer carries no
 * target metadata, so the library track's own (same recording) is shown.
 */
export function resolveLibraryChoice(choice: LibraryChoice, options: ResolveOptions, seen: Set<string>, totals: ResolutionTotals): Promise<ResolvedIntent> {
  const { offered } = choice;
  const track = offered.library.track;
  const intent: TrackIntent = { title: offered.title, artist: offered.artist, album: offered.album, release_year: track.release_year ?? null, reason: choice.reason };
  return resolveSource(intent, track, offered.library.provider, track, options, seen, totals);
}

async function resolveSource(intent: TrackIntent, source: Track, sourceProvider: string, known: Track | null, options: ResolveOptions, seen: Set<string>, totals: ResolutionTotals): Promise<ResolvedIntent> {
  const resolution = await options.matching.resolve({
    source,
    sourceProvider,
    target: options.target,
    strictness: 'same_recording',
    ...(options.validate ? { validate: options.validate } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  totals.searches += resolution.searches;
  const candidates = resolution.candidates
    .map((ranked) => candidateOf(options.target.provider, ranked))
    .filter((candidate): candidate is CandidateTrack => candidate !== null)
    .slice(0, KEPT_CANDIDATES);
  const track = resolution.decision === 'accept' || resolution.decision === 'review' ? (chosenTrack(resolution) ?? (resolution.chosen?.uri ? known : null)) : null;
  const uri = resolution.chosen?.uri ?? null;
  if (!track || !uri) {
    const reason = resolution.decision === 'retry' ? `Not searched: ${resolution.reason}` : `Not found on the target: ${resolution.reason}`;
    return { intent, status: 'unresolved', approved: false, target: null, confidence: null, reason, candidates };
  }
  const target = { uri, id: track.id ?? resolution.chosen!.id, title: track.title, artist: track.artist, album: track.album, durationS: track.duration_s, isrc: track.isrc, explicit: track.explicit };
  const confidence = Math.max(0, Math.min(1, resolution.confidence));
  const base = { intent, target, confidence, candidates };
  if (seen.has(uri)) {
    totals.duplicates += 1;
    return { ...base, status: 'removed', approved: false, reason: `Left out: the same track as another song of the draft. ${resolution.reason}` };
  }
  if ((options.controls.explicit === 'exclude' && track.explicit === true) || (options.controls.explicit === 'only' && track.explicit !== true)) {
    totals.explicitFiltered += 1;
    const why = options.controls.explicit === 'exclude' ? 'the target marks it explicit and you excluded explicit songs' : 'the target does not mark it explicit and you asked for explicit songs only';
    return { ...base, status: 'removed', approved: false, reason: `Left out: ${why}.` };
  }
  seen.add(uri);
  return { ...base, status: 'resolved', approved: resolution.decision === 'accept', reason: resolution.reason };
}

/**
 * Local models miss durations: the wished length is fitted with the resolved tracks' real
 * durations, keeping songs in order until the next would overshoot by more than half its own
 * length. The resolved songs after that are marked removed (with the reason; the user may restore
 * them). Returns the indexes it removed.
 */
export function fitDuration(items: ResolvedIntent[], durationMinutes: number | null): number[] {
  if (durationMinutes === null) return [];
  const budget = durationMinutes * 60;
  let total = 0;
  let cut = -1;
  for (let index = 0; index < items.length; index++) {
    const item = items[index]!;
    if (item.status !== 'resolved' || item.target === null || item.target.durationS === null) continue;
    const length = item.target.durationS;
    if (total + length / 2 > budget) {
      cut = index;
      break;
    }
    total += length;
  }
  if (cut < 0) return [];
  const removed: number[] = [];
  // Unresolved songs after the cut stay: they take no time, and the user may still replace them.
  for (let index = cut; index < items.length; index++) {
    const item = items[index]!;
    if (item.status !== 'resolved') continue;
    items[index] = { ...item, status: 'removed', approved: false, reason: `Left out: the draft already fills the wished ${durationMinutes} minutes.` };
    removed.push(index);
  }
  return removed;
}
