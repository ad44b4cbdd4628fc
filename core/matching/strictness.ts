import type { VersionKind } from './versions.ts';

/**
 * The per-job strictness setting, and everything it changes in scoring and deciding, in one place.
 * The migration engine stores these exact names (`migration_job.strictness`); `parseStrictness`
 * is the only way a stored or requested value becomes matcher settings.
 *
 * - `exact_release`: the same release. Auto-accept needs the same album (when both sides name one),
 *   durations within 3 s, equal ISRCs when both sides carry one, the same explicit flag, and no
 *   version difference at all (a remaster, radio edit or mono mix is another release).
 * - `same_recording` (default): the same recording, on any release. A compilation, single, deluxe
 *   edition or remaster of the same recording is accepted: remastering changes the mastering, not
 *   the performance, and catalogues often carry only the remaster. Radio/single edits cost a little.
 * - `best_effort`: the review bar is lower and small edition differences cost less, but a different
 *   recording (live, remix, karaoke, cover, acoustic, instrumental, sped up…) or a different song is
 *   never auto-accepted, whatever its score: that is a rule of `decideMatch`, not a weight.
 */

export const STRICTNESS_LEVELS = ['exact_release', 'same_recording', 'best_effort'] as const;
export type Strictness = (typeof STRICTNESS_LEVELS)[number];
export const DEFAULT_STRICTNESS: Strictness = 'same_recording';

/** Version kinds that make another recording or another performer: never auto-accepted across. */
export const DIFFERENT_RECORDING: ReadonlySet<VersionKind> = new Set<VersionKind>([
  'live', 'remix', 'karaoke', 'cover', 'tribute', 'acoustic', 'instrumental', 'sped_up', 'slowed', 'nightcore', 'altered',
  'a_cappella', 'demo', 're_recording', 'extended', 'version',
]);

export interface StrictnessSettings {
  /** Words for the listener (shown on the migration board). */
  label: string;
  /** Auto-accept only at or above this score. */
  acceptAt: number;
  /** Penalty when exactly one side carries the version kind. */
  versionPenalty: Partial<Record<VersionKind, number>>;
  explicitPenalty: number;
  /** Penalty when both sides carry an ISRC and they differ. */
  isrcMismatchPenalty: number;
  /** Penalty when both sides name an album and the names differ (0: another release is fine). */
  albumMismatchPenalty: number;
  /** Auto-accept needs: the same album when both name one, equal ISRCs when both have one, the same explicit flag. */
  requireSameRelease: boolean;
  /** Auto-accept needs durations at most this far apart (seconds) when both are known; null: no limit beyond scoring. */
  maxDurationDeltaS: number | null;
  /**
   * Whether a `fuzzy` identity-graph edge may answer without a search. Its confidence was scored
   * under whatever strictness first accepted it, which says nothing about the release.
   */
  trustFuzzyGraphEdges: boolean;
  /**
   * Whether the identity graph may answer only with a person's confirmation of this very source
   * track. Graph identities are recordings: an ISRC edge or an earlier acceptance can name any
   * release of the recording (a compilation copy shares the album track's ISRC), and edges do not
   * record the release, so a level that needs the same release searches and scores instead.
   */
  graphAnswersOnlyConfirmedSource: boolean;
}

export const STRICTNESS: Readonly<Record<Strictness, StrictnessSettings>> = {
  exact_release: {
    label: 'exact release',
    acceptAt: 0.92,
    versionPenalty: {
      karaoke: 0.6, cover: 0.6, tribute: 0.6, live: 0.42, remix: 0.48, acoustic: 0.42, instrumental: 0.48, sped_up: 0.5,
      slowed: 0.5, nightcore: 0.5, altered: 0.5, a_cappella: 0.48, demo: 0.42, re_recording: 0.4, extended: 0.25, version: 0.25,
      radio_edit: 0.15, single_version: 0.12, edit: 0.15, remaster: 0.1, mono: 0.08, stereo: 0.04, deluxe: 0.05,
    },
    explicitPenalty: 0.15,
    isrcMismatchPenalty: 0.06,
    albumMismatchPenalty: 0.12,
    requireSameRelease: true,
    maxDurationDeltaS: 3,
    trustFuzzyGraphEdges: false,
    graphAnswersOnlyConfirmedSource: true,
  },
  same_recording: {
    label: 'same recording',
    acceptAt: 0.88,
    versionPenalty: {
      karaoke: 0.6, cover: 0.55, tribute: 0.55, live: 0.35, remix: 0.4, acoustic: 0.35, instrumental: 0.4, sped_up: 0.45,
      slowed: 0.45, nightcore: 0.45, altered: 0.45, a_cappella: 0.4, demo: 0.35, re_recording: 0.3, extended: 0.2, version: 0.2,
      radio_edit: 0.06, single_version: 0.05, edit: 0.1, remaster: 0, mono: 0.02, stereo: 0.01, deluxe: 0,
    },
    explicitPenalty: 0.03,
    isrcMismatchPenalty: 0.01,
    albumMismatchPenalty: 0,
    requireSameRelease: false,
    maxDurationDeltaS: null,
    trustFuzzyGraphEdges: true,
    graphAnswersOnlyConfirmedSource: false,
  },
  best_effort: {
    label: 'best effort',
    acceptAt: 0.82,
    versionPenalty: {
      karaoke: 0.6, cover: 0.55, tribute: 0.55, live: 0.26, remix: 0.3, acoustic: 0.26, instrumental: 0.3, sped_up: 0.34,
      slowed: 0.34, nightcore: 0.34, altered: 0.34, a_cappella: 0.3, demo: 0.26, re_recording: 0.22, extended: 0.12, version: 0.12,
      radio_edit: 0.03, single_version: 0.02, edit: 0.05, remaster: 0, mono: 0, stereo: 0, deluxe: 0,
    },
    explicitPenalty: 0.01,
    isrcMismatchPenalty: 0.01,
    albumMismatchPenalty: 0,
    requireSameRelease: false,
    maxDurationDeltaS: null,
    trustFuzzyGraphEdges: true,
    graphAnswersOnlyConfirmedSource: false,
  },
};

/** Earlier names of the levels, still found in old job rows and clients. */
const LEGACY: Readonly<Record<string, Strictness>> = { strict: 'exact_release', balanced: 'same_recording', lenient: 'best_effort' };

export class UnknownStrictness extends Error {
  constructor(value: unknown) {
    super(`Unknown match strictness ${JSON.stringify(value)}: use one of ${STRICTNESS_LEVELS.join(', ')}.`);
    this.name = 'UnknownStrictness';
  }
}

/** A stored or requested strictness name → the matcher's level. Missing means the default; anything unknown throws. */
export function parseStrictness(value: unknown): Strictness {
  if (value === undefined || value === null || value === '') return DEFAULT_STRICTNESS;
  if (typeof value === 'string') {
    if ((STRICTNESS_LEVELS as readonly string[]).includes(value)) return value as Strictness;
    const legacy = LEGACY[value];
    if (legacy) return legacy;
  }
  throw new UnknownStrictness(value);
}

export function strictnessSettings(value: unknown): StrictnessSettings {
  return STRICTNESS[parseStrictness(value)];
}
