import type { Track } from '@opl/plugin-sdk';
import { trackSchema } from '@opl/plugin-sdk/schemas';
import type { MatchService, MatchTarget, Resolution } from '../matching/index.ts';
import type { GeneratorControls } from './generation-request.ts';
import type { TrackIntent } from './track-intents.ts';

/**
 * Turns the model's song intents into real tracks of the target, through the target adapter's
 * search and the core match service (the same scoring a migration uses). Nothing the model names
 * is trusted as existing: a song the target does not have stays in the draft as unresolved, with
 * the reason, instead of vanishing. Two intents that land on the same target track count once;
 * the explicit preference is applied to what the target says about the track.
 */

export interface ResolvedIntent {
  intent: TrackIntent;
  status: 'resolved' | 'unresolved';
  /** Approved at once when the match service accepted it; a suggestion for review otherwise. */
  approved: boolean;
  target: { uri: string; id: string; title: string; artist: string; album: string | null; durationS: number | null; isrc: string | null; explicit: boolean | null } | null;
  confidence: number | null;
  reason: string;
}

export interface ResolvedDraft {
  items: ResolvedIntent[];
  searches: number;
  /** Intents dropped because they named a track already in the draft. */
  duplicates: number;
  /** Tracks left out by the explicit preference. */
  explicitFiltered: number;
  /** Resolved tracks left out because the wished duration was already filled. */
  durationTrimmed: number;
}

/** The intent as the source track of a match: words only, no ids. */
export function intentAsTrack(intent: TrackIntent): Track {
  return trackSchema.parse({ title: intent.title, artist: intent.artist, artists: [intent.artist], album: intent.album, release_year: intent.release_year });
}

function chosenTrack(resolution: Resolution): Track | null {
  const uri = resolution.chosen?.uri;
  if (!resolution.chosen || !uri) return null;
  return resolution.chosen.track ?? resolution.candidates.find((candidate) => candidate.track.id === resolution.chosen!.id)?.track ?? null;
}

export async function resolveIntents(
  intents: readonly TrackIntent[],
  options: { matching: Pick<MatchService, 'resolve'>; target: MatchTarget; controls: GeneratorControls; cancelled?: () => boolean; onProgress?: (done: number, total: number) => void },
): Promise<ResolvedDraft> {
  const items: ResolvedIntent[] = [];
  const seen = new Set<string>();
  let searches = 0;
  let duplicates = 0;
  let explicitFiltered = 0;
  for (const intent of intents) {
    if (options.cancelled?.()) break;
    const resolution = await options.matching.resolve({ source: intentAsTrack(intent), sourceProvider: 'generated', target: options.target, strictness: 'same_recording' });
    searches += resolution.searches;
    options.onProgress?.(items.length + duplicates + explicitFiltered + 1, intents.length);
    const track = resolution.decision === 'accept' || resolution.decision === 'review' ? chosenTrack(resolution) : null;
    const uri = resolution.chosen?.uri ?? null;
    if (!track || !uri) {
      items.push({ intent, status: 'unresolved', approved: false, target: null, confidence: null, reason: resolution.decision === 'retry' ? `Not searched: ${resolution.reason}` : `Not found on the target: ${resolution.reason}` });
      continue;
    }
    if (seen.has(uri)) {
      duplicates += 1;
      continue;
    }
    if ((options.controls.explicit === 'exclude' && track.explicit === true) || (options.controls.explicit === 'only' && track.explicit !== true)) {
      explicitFiltered += 1;
      continue;
    }
    seen.add(uri);
    items.push({
      intent,
      status: 'resolved',
      approved: resolution.decision === 'accept',
      target: { uri, id: track.id ?? resolution.chosen!.id, title: track.title, artist: track.artist, album: track.album, durationS: track.duration_s, isrc: track.isrc, explicit: track.explicit },
      confidence: Math.max(0, Math.min(1, resolution.confidence)),
      reason: resolution.reason,
    });
  }
  const durationTrimmed = fitDuration(items, options.controls.duration_minutes);
  return { items, searches, duplicates, explicitFiltered, durationTrimmed };
}

/**
 * Local models miss durations: the wished length is fitted with the resolved tracks' real
 * durations, keeping songs in order until the next would overshoot by more than half its own
 * length. The resolved songs after that are removed (counted in the draft's summary).
 */
export function fitDuration(items: ResolvedIntent[], durationMinutes: number | null): number {
  if (durationMinutes === null) return 0;
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
  if (cut < 0) return 0;
  // Unresolved songs after the cut stay: they take no time, and the user may still replace them.
  const kept = items.filter((item, index) => index < cut || item.status !== 'resolved');
  const removed = items.length - kept.length;
  items.splice(0, items.length, ...kept);
  return removed;
}
