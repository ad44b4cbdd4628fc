/**
 * The generator's API (`/api/generator/*`): paths, the request the page sends, and the answers
 * parsed into what the page shows. Pure: no I/O. The prompt is sent with a request and never comes
 * back: the engine does not store it, so the page keeps it in memory to generate again.
 */

export const GENERATOR_CONFIG_PATH = '/api/generator/config';
export const DRAFTS_PATH = '/api/generator/drafts';

export const draftPath = (id: string): string => `${DRAFTS_PATH}/${encodeURIComponent(id)}`;
export const draftEventsPath = (id: string): string => `${draftPath(id)}/events`;
export const draftItemPath = (id: string, itemId: string): string => `${draftPath(id)}/items/${encodeURIComponent(itemId)}`;

export interface GeneratorConfig {
  readonly available: boolean;
  readonly model: string;
  readonly demo: boolean;
  readonly message: string;
  readonly maxPromptChars: number;
  readonly maxTracks: number;
}

export interface Signal {
  readonly signal: string;
  readonly value: number;
  readonly weight: number;
  readonly note: string;
}

export interface Candidate {
  readonly uri: string;
  readonly title: string;
  readonly artist: string;
  readonly album: string | null;
  readonly durationS: number | null;
  readonly explicit: boolean | null;
  readonly confidence: number;
  readonly reason: string;
}

export type ItemStatus = 'pending' | 'resolved' | 'unresolved' | 'removed';

export interface DraftItem {
  readonly id: string;
  readonly position: number;
  readonly status: ItemStatus;
  readonly approved: boolean;
  readonly targetUri: string | null;
  readonly title: string;
  readonly artist: string;
  readonly album: string | null;
  readonly durationS: number | null;
  readonly explicit: boolean | null;
  readonly confidence: number | null;
  readonly reason: string | null;
  readonly signals: readonly Signal[];
  /** What the model proposed, in its words. */
  readonly intent: { readonly title: string; readonly artist: string } | null;
  readonly candidates: readonly Candidate[];
}

export interface DraftSummary {
  readonly id: string;
  readonly name: string;
  readonly status: string;
  readonly targetProvider: string;
  readonly targetAccountId: string;
  readonly controls: Record<string, unknown>;
  readonly generation: Record<string, unknown>;
  readonly migrationJobId: string | null;
  /** The item ids in order (events) or absent (a whole draft lists its items). */
  readonly itemOrder: readonly string[] | null;
}

export interface Draft extends DraftSummary {
  readonly items: readonly DraftItem[];
}

export interface Controls {
  genres: string[];
  moods: string[];
  eras: string[];
  energy: number | null;
  track_count: number;
  duration_minutes: number | null;
  seed_artists: string[];
  seed_tracks: string[];
  explicit: 'allow' | 'exclude' | 'only';
  discovery: number;
}

export function defaultControls(): Controls {
  return { genres: [], moods: [], eras: [], energy: null, track_count: 15, duration_minutes: null, seed_artists: [], seed_tracks: [], explicit: 'allow', discovery: 50 };
}

/** "rock, folk ;  jazz" → ["rock", "folk", "jazz"] (at most 10, as the engine takes). */
export function wordList(text: string): string[] {
  return text
    .split(/[,;\n]/)
    .map((word) => word.trim())
    .filter((word) => word !== '')
    .slice(0, 10);
}

type Json = Record<string, unknown>;
const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

export function parseConfig(body: unknown): GeneratorConfig | undefined {
  if (!isRecord(body) || typeof body['available'] !== 'boolean') return undefined;
  const limits = isRecord(body['limits']) ? body['limits'] : {};
  return {
    available: body['available'],
    model: text(body['model']) ?? '',
    demo: body['demo'] === true,
    message: text(body['message']) ?? '',
    maxPromptChars: num(limits['max_prompt_chars']) ?? 2000,
    maxTracks: num(limits['max_tracks']) ?? 50,
  };
}

function parseCandidate(value: unknown): Candidate | undefined {
  if (!isRecord(value) || !text(value['uri']) || !text(value['title'])) return undefined;
  return {
    uri: text(value['uri'])!,
    title: text(value['title'])!,
    artist: text(value['artist']) ?? '',
    album: text(value['album']),
    durationS: num(value['duration_s']),
    explicit: typeof value['explicit'] === 'boolean' ? value['explicit'] : null,
    confidence: num(value['confidence']) ?? 0,
    reason: text(value['reason']) ?? '',
  };
}

export function parseItem(value: unknown): DraftItem | undefined {
  if (!isRecord(value) || !text(value['id']) || !text(value['status'])) return undefined;
  const intent = isRecord(value['intent']) && text(value['intent']['title']) ? { title: text(value['intent']['title'])!, artist: text(value['intent']['artist']) ?? '' } : null;
  return {
    id: text(value['id'])!,
    position: num(value['position']) ?? 0,
    status: text(value['status']) as ItemStatus,
    approved: value['approved'] === true,
    targetUri: text(value['target_uri']),
    title: text(value['title']) ?? '',
    artist: text(value['artist']) ?? '',
    album: text(value['album']),
    durationS: num(value['duration_s']),
    explicit: typeof value['explicit'] === 'boolean' ? value['explicit'] : null,
    confidence: num(value['confidence']),
    reason: text(value['reason']),
    signals: Array.isArray(value['signals']) ? value['signals'].filter(isRecord).map((signal) => ({ signal: text(signal['signal']) ?? '', value: num(signal['value']) ?? 0, weight: num(signal['weight']) ?? 0, note: text(signal['note']) ?? '' })) : [],
    intent,
    candidates: Array.isArray(value['candidates']) ? value['candidates'].map(parseCandidate).filter((candidate): candidate is Candidate => candidate !== undefined) : [],
  };
}

export function parseDraftSummary(value: unknown): DraftSummary | undefined {
  if (!isRecord(value) || !text(value['id']) || !text(value['status'])) return undefined;
  return {
    id: text(value['id'])!,
    name: text(value['name']) ?? '',
    status: text(value['status'])!,
    targetProvider: text(value['target_provider']) ?? '',
    targetAccountId: text(value['target_account_id']) ?? '',
    controls: isRecord(value['controls']) ? value['controls'] : {},
    generation: isRecord(value['generation']) ? value['generation'] : {},
    migrationJobId: text(value['migration_job_id']),
    itemOrder: Array.isArray(value['item_order']) ? value['item_order'].filter((id): id is string => typeof id === 'string') : null,
  };
}

export function parseDraft(value: unknown): Draft | undefined {
  const summary = parseDraftSummary(value);
  if (!summary || !isRecord(value) || !Array.isArray(value['items'])) return undefined;
  return { ...summary, itemOrder: null, items: value['items'].map(parseItem).filter((item): item is DraftItem => item !== undefined) };
}

export interface SearchResult {
  readonly uri: string;
  readonly title: string;
  readonly artist: string;
  readonly album: string | null;
}

export function parseSearchResults(body: unknown): SearchResult[] | undefined {
  if (!isRecord(body) || !Array.isArray(body['results'])) return undefined;
  return body['results'].filter(isRecord).flatMap((result) => (text(result['uri']) && text(result['title']) ? [{ uri: text(result['uri'])!, title: text(result['title'])!, artist: text(result['artist']) ?? '', album: text(result['album']) }] : []));
}

export function formatDuration(seconds: number | null): string {
  if (seconds === null) return '';
  const total = Math.round(seconds);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const rest = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
}

/** The match confidence in words a listener reads ("92% match"). */
export function confidenceLabel(confidence: number | null): string {
  return confidence === null ? 'No match score' : `${Math.round(confidence * 100)}% match`;
}

export const ITEM_STATUS_LABEL: Record<ItemStatus, string> = {
  pending: 'Searching…',
  resolved: 'Found',
  unresolved: 'Not found',
  removed: 'Left out',
};
