/**
 * Migrations: the request and answer shapes of `/api/migrations/*`, parsed into camelCase so
 * components never read raw JSON, plus the words the Migrate and History pages use for them. Pure:
 * no I/O. The engine decides warnings, refusals and statuses; this module only puts them into words.
 */

import { parseCollectionIds } from './imports.ts';
import { parsePlaylistTrack, type PlaylistTrack } from './playlists.ts';
import type { Problem } from './problem.ts';

export const MIGRATIONS_PATH = '/api/migrations';
export const PREFLIGHT_PATH = `${MIGRATIONS_PATH}/preflight`;
export const AGGREGATE_STATS_PATH = `${MIGRATIONS_PATH}/stats`;
/** The collection id of the liked songs in a selection. */
export const LIKED_COLLECTION_ID = 'liked';
/** The Import page leaves an import record id here before it sends the user to Migrate. */
export const IMPORT_HANDOVER_KEY = 'opl.migrate.import-id';

export const ITEM_STATUSES = ['pending', 'matched', 'needs_review', 'written', 'skipped', 'failed'] as const;
export const ENTITY_TYPES = ['track', 'album', 'artist'] as const;
export type ItemStatus = (typeof ITEM_STATUSES)[number];

const base = (jobId: string) => `${MIGRATIONS_PATH}/${encodeURIComponent(jobId)}`;

export function migrationPath(jobId: string): string {
  return base(jobId);
}

export function migrationsListPath(limit = 50, offset = 0): string {
  return `${MIGRATIONS_PATH}?${new URLSearchParams({ limit: String(limit), offset: String(offset) }).toString()}`;
}

export function eventsPath(jobId: string): string {
  return `${base(jobId)}/events`;
}

export function jobStatsPath(jobId: string): string {
  return `${base(jobId)}/stats`;
}

export function reviewPath(jobId: string, itemId: string): string {
  return `${base(jobId)}/items/${encodeURIComponent(itemId)}/review`;
}

export function batchReviewPath(jobId: string): string {
  return `${base(jobId)}/items/review`;
}

export function resumePath(jobId: string): string {
  return `${base(jobId)}/resume`;
}

export function cancelPath(jobId: string): string {
  return `${base(jobId)}/cancel`;
}

/** The filters of the items view and of the report (the engine applies the same ones to both). */
export interface ItemFilter {
  readonly statuses: readonly string[];
  readonly entityType: string | null;
  readonly problemOnly: boolean;
  /** Matched against the title (the engine filters title and artist separately). */
  readonly title: string;
  readonly artist: string;
}

export const NO_FILTER: ItemFilter = { statuses: [], entityType: null, problemOnly: false, title: '', artist: '' };

function filterQuery(filter: ItemFilter): URLSearchParams {
  const query = new URLSearchParams();
  for (const status of filter.statuses) query.append('status', status);
  if (filter.entityType) query.set('entity_type', filter.entityType);
  if (filter.problemOnly) query.set('problem_only', 'true');
  if (filter.title.trim() !== '') query.set('title', filter.title.trim());
  if (filter.artist.trim() !== '') query.set('artist', filter.artist.trim());
  return query;
}

export function itemsPath(jobId: string, filter: ItemFilter = NO_FILTER, limit = 200, offset = 0): string {
  const query = filterQuery(filter);
  query.set('limit', String(limit));
  query.set('offset', String(offset));
  return `${base(jobId)}/items?${query.toString()}`;
}

export function reportPath(jobId: string, format: 'csv' | 'json', filter: ItemFilter = NO_FILTER): string {
  const query = filterQuery(filter);
  query.set('format', format);
  return `${base(jobId)}/report?${query.toString()}`;
}

// --- request --------------------------------------------------------------------------------

export type MigrationSource = { readonly kind: 'account'; readonly accountId: string; readonly provider: string } | { readonly kind: 'import'; readonly importId: string };

export interface SelectionDraft {
  /** Whole collections (`liked` for the liked songs). */
  readonly collectionIds: readonly string[];
  /** Collections of which only some tracks go: collection id → `pos:<n>` keys. */
  readonly tracks: Readonly<Record<string, readonly string[]>>;
  readonly savedAlbumIds: readonly string[];
  readonly followedArtistIds: readonly string[];
}

export const EMPTY_SELECTION: SelectionDraft = { collectionIds: [], tracks: {}, savedAlbumIds: [], followedArtistIds: [] };

export function selectionIsEmpty(selection: SelectionDraft): boolean {
  return selection.collectionIds.length === 0 && Object.keys(selection.tracks).length === 0 && selection.savedAlbumIds.length === 0 && selection.followedArtistIds.length === 0;
}

/** The body of `POST /api/migrations` and of its preflight, in the API's snake_case. */
export function migrationBody(source: MigrationSource, target: { provider: string; accountId: string }, selection: SelectionDraft, acknowledgeWarnings = false): Record<string, unknown> {
  const tracks = Object.fromEntries(Object.entries(selection.tracks).filter(([, keys]) => keys.length > 0));
  return {
    source_provider: source.kind === 'import' ? 'import' : source.provider,
    source_account_id: source.kind === 'import' ? source.importId : source.accountId,
    target_provider: target.provider,
    target_account_id: target.accountId,
    selection: {
      playlist_ids: selection.collectionIds.filter((id) => !(id in tracks)),
      tracks,
      saved_album_ids: selection.savedAlbumIds,
      followed_artist_ids: selection.followedArtistIds,
    },
    ...(acknowledgeWarnings ? { acknowledge_warnings: true } : {}),
  };
}

/** Ids typed one per line or separated by commas; blanks dropped, duplicates once. */
export function parseIdList(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/).map((id) => id.trim()).filter((id) => id !== ''))];
}

// --- answers --------------------------------------------------------------------------------

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const isString = (value: unknown): value is string => typeof value === 'string';
const str = (value: unknown, fallback = ''): string => (isString(value) ? value : fallback);
const nullableStr = (value: unknown): string | null => (isString(value) ? value : null);
const num = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
const nullableNum = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

export interface Warning {
  readonly code: string;
  readonly message: string;
}

export interface SelectionSummary {
  readonly playlists: number;
  readonly tracks: number;
  readonly savedAlbums: number;
  readonly followedArtists: number;
  readonly unsupported: number;
}

export interface Preflight {
  readonly ready: boolean;
  readonly message: string;
  readonly summary: SelectionSummary;
  readonly warnings: readonly Warning[];
  readonly collections: readonly { readonly id: string; readonly name: string; readonly kind: string; readonly tracks: number; readonly selectedTracks: number }[];
}

function parseWarnings(value: unknown): Warning[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isRecord).map((warning) => ({ code: str(warning['code'], 'warning'), message: str(warning['message']) }));
}

function parseSummary(value: unknown): SelectionSummary {
  const summary = isRecord(value) ? value : {};
  return { playlists: num(summary['playlists']), tracks: num(summary['tracks']), savedAlbums: num(summary['saved_albums']), followedArtists: num(summary['followed_artists']), unsupported: num(summary['unsupported']) };
}

export function parsePreflight(body: unknown): Preflight | undefined {
  if (!isRecord(body) || !isString(body['code'])) return undefined;
  const collections = Array.isArray(body['collections'])
    ? body['collections'].filter(isRecord).map((c) => ({ id: str(c['id']), name: str(c['name']), kind: str(c['kind']), tracks: num(c['tracks']), selectedTracks: num(c['selected_tracks']) }))
    : [];
  return { ready: body['code'] === 'ok', message: str(body['message']), summary: parseSummary(body['summary']), warnings: parseWarnings(body['warnings']), collections };
}

export type StatusCounts = Readonly<Record<ItemStatus | 'total', number>>;

function parseCounts(value: unknown): StatusCounts {
  const counts = isRecord(value) ? value : {};
  return { total: num(counts['total']), pending: num(counts['pending']), matched: num(counts['matched']), needs_review: num(counts['needs_review']), written: num(counts['written']), skipped: num(counts['skipped']), failed: num(counts['failed']) };
}

export interface MigrationJob {
  readonly id: string;
  readonly label: string;
  readonly status: string;
  readonly outcome: string;
  readonly phase: string;
  readonly sourceKind: string;
  readonly sourceProvider: string;
  readonly sourceAccountId: string;
  readonly targetProvider: string;
  readonly targetAccountId: string;
  readonly warnings: readonly Warning[];
  readonly acknowledgedWarnings: readonly Warning[];
  readonly error: string | null;
  readonly errorCode: string | null;
  readonly resumeAt: string | null;
  readonly createdAt: string;
  readonly completedAt: string | null;
  readonly detailAvailable: boolean;
  readonly total: number;
  readonly done: number;
  readonly counts: StatusCounts;
  readonly entityCounts: Readonly<Record<string, StatusCounts>>;
}

export function parseJob(value: unknown): MigrationJob | undefined {
  if (!isRecord(value) || !isString(value['id']) || !isString(value['status'])) return undefined;
  const entity = isRecord(value['entity_counts']) ? value['entity_counts'] : {};
  return {
    id: value['id'],
    label: str(value['label'], value['id']),
    status: value['status'],
    outcome: str(value['outcome'], 'pending'),
    phase: str(value['phase']),
    sourceKind: str(value['source_kind']),
    sourceProvider: str(value['source_provider']),
    sourceAccountId: str(value['source_account_id']),
    targetProvider: str(value['target_provider']),
    targetAccountId: str(value['target_account_id']),
    warnings: parseWarnings(value['warnings']),
    acknowledgedWarnings: parseWarnings(value['acknowledged_warnings']),
    error: nullableStr(value['error']),
    errorCode: nullableStr(value['error_code']),
    resumeAt: nullableStr(value['resume_at']),
    createdAt: str(value['created_at']),
    completedAt: nullableStr(value['completed_at']),
    detailAvailable: value['detail_available'] !== false,
    total: num(value['total']),
    done: num(value['done']),
    counts: parseCounts(value['counts']),
    entityCounts: Object.fromEntries(Object.entries(entity).map(([type, counts]) => [type, parseCounts(counts)])),
  };
}

export function parseJobs(body: unknown): MigrationJob[] | undefined {
  if (!Array.isArray(body)) return undefined;
  const jobs = body.map(parseJob);
  return jobs.every((job): job is MigrationJob => job !== undefined) ? jobs : undefined;
}

export interface Candidate {
  readonly uri: string | null;
  readonly title: string;
  readonly artist: string;
  readonly album: string | null;
  readonly durationS: number | null;
  readonly score: number | null;
  readonly reason: string;
}

export interface MigrationItem {
  readonly id: string;
  readonly entityType: string;
  readonly status: string;
  readonly sourcePlaylistName: string | null;
  readonly position: number | null;
  readonly title: string;
  readonly artist: string;
  readonly album: string | null;
  readonly confidence: number | null;
  readonly reason: string | null;
  readonly targetUri: string | null;
  readonly candidates: readonly Candidate[];
}

function parseCandidate(value: unknown): Candidate | undefined {
  if (!isRecord(value)) return undefined;
  return { uri: nullableStr(value['uri']), title: str(value['title']), artist: str(value['artist']), album: nullableStr(value['album']), durationS: nullableNum(value['duration_s']), score: nullableNum(value['score']), reason: str(value['reason']) };
}

export function parseItem(value: unknown): MigrationItem | undefined {
  if (!isRecord(value) || !isString(value['id']) || !isString(value['status'])) return undefined;
  const candidates = Array.isArray(value['candidates']) ? value['candidates'].map(parseCandidate).filter((c): c is Candidate => c !== undefined) : [];
  return {
    id: value['id'],
    entityType: str(value['entity_type'], 'track'),
    status: value['status'],
    sourcePlaylistName: nullableStr(value['source_playlist_name']),
    position: nullableNum(value['position']),
    title: str(value['title']),
    artist: str(value['artist']),
    album: nullableStr(value['album']),
    confidence: nullableNum(value['confidence']),
    reason: nullableStr(value['reason']),
    targetUri: nullableStr(value['target_uri']),
    candidates,
  };
}

/** A reviewer's search of the target for one item (a correction no candidate offers). */
export function itemSearchPath(jobId: string, itemId: string, query: string): string {
  return `${MIGRATIONS_PATH}/${encodeURIComponent(jobId)}/items/${encodeURIComponent(itemId)}/search?${new URLSearchParams({ q: query }).toString()}`;
}

/** The search's results, as candidates without a score (the reviewer judges them). */
export function parseSearchResults(body: unknown): Candidate[] | undefined {
  if (!isRecord(body) || !Array.isArray(body['results'])) return undefined;
  return body['results'].filter(isRecord).map((value) => ({ uri: nullableStr(value['uri']), title: str(value['title']), artist: str(value['artist']), album: nullableStr(value['album']), durationS: nullableNum(value['duration_s']), score: null, reason: 'found by your search' }));
}

export function parseItems(body: unknown): MigrationItem[] | undefined {
  if (!Array.isArray(body)) return undefined;
  const items = body.map(parseItem);
  return items.every((item): item is MigrationItem => item !== undefined) ? items : undefined;
}

export interface AggregateStats {
  readonly totalMigrations: number;
  readonly counts: StatusCounts;
  readonly outcomes: Readonly<Record<string, number>>;
}

export function parseAggregateStats(body: unknown): AggregateStats | undefined {
  if (!isRecord(body)) return undefined;
  const outcomes = isRecord(body['outcomes']) ? body['outcomes'] : {};
  return { totalMigrations: num(body['total_migrations']), counts: parseCounts(body['counts']), outcomes: Object.fromEntries(Object.entries(outcomes).map(([key, value]) => [key, num(value)])) };
}

export interface CollectionStats {
  readonly id: string;
  readonly name: string;
  readonly counts: Readonly<Record<string, number>>;
}

export function parseJobStats(body: unknown): { job: MigrationJob; collections: CollectionStats[] } | undefined {
  if (!isRecord(body)) return undefined;
  const job = parseJob(body['job']);
  if (!job) return undefined;
  const collections = Array.isArray(body['collections'])
    ? body['collections'].filter(isRecord).map((c) => {
        const counts = isRecord(c['counts']) ? c['counts'] : {};
        return { id: str(c['source_playlist_id']), name: str(c['source_playlist_name'], str(c['source_playlist_id'])), counts: Object.fromEntries(Object.entries(counts).map(([key, value]) => [key, num(value)])) };
      })
    : [];
  return { job, collections };
}

/** An import record's playlists as the wizard lists them, each by its collection id. */
export interface ImportCollection {
  /** The engine's `collection_ids` entry (unique within the import): what the selection names it by. */
  readonly id: string;
  readonly name: string;
  readonly trackCount: number;
  /** Every track: `GET /api/imports/{id}` answers with all of them, so picking some needs no further read. */
  readonly tracks: readonly PlaylistTrack[];
}

/** An import record's playlists as collections to pick; undefined when the body (or a track) lacks the documented fields. */
export function parseImportCollections(body: unknown): ImportCollection[] | undefined {
  if (!isRecord(body) || !Array.isArray(body['playlists'])) return undefined;
  // The engine names the playlists (`collection_ids`, unique within the import); two playlists
  // sharing an id, or an id equal to another's index, must not be told apart here by guessing.
  const ids = parseCollectionIds(body['collection_ids'], body['playlists'].length);
  if (!ids) return undefined;
  const collections: ImportCollection[] = [];
  for (const [index, playlist] of body['playlists'].entries()) {
    if (!isRecord(playlist)) return undefined;
    const raw = playlist['tracks'] ?? [];
    if (!Array.isArray(raw)) return undefined;
    const tracks = raw.map(parsePlaylistTrack);
    if (tracks.some((track) => track === undefined)) return undefined;
    collections.push({
      id: ids[index]!,
      name: str(playlist['name'], `Playlist ${index + 1}`),
      // A universal Playlist's track_count may be null: its tracks are all there to count.
      trackCount: typeof playlist['track_count'] === 'number' ? num(playlist['track_count']) : tracks.length,
      tracks: tracks as PlaylistTrack[],
    });
  }
  return collections;
}

// --- refusals -------------------------------------------------------------------------------

export interface Refusal {
  readonly entity: string;
  readonly message: string;
}

export type StartFailure =
  | { readonly kind: 'warnings'; readonly summary: SelectionSummary; readonly warnings: readonly Warning[] }
  | { readonly kind: 'unsupported'; readonly problem: Problem; readonly refusals: readonly Refusal[] }
  | { readonly kind: 'problem'; readonly problem: Problem };

/** Sorts an error answer of the preflight or the start into what the wizard shows. */
export function describeStartFailure(problem: Problem, body: unknown): StartFailure {
  const extra = isRecord(body) ? body : {};
  if (problem.code === 'migration_warnings' && Array.isArray(extra['warnings'])) {
    return { kind: 'warnings', summary: parseSummary(extra['summary']), warnings: parseWarnings(extra['warnings']) };
  }
  if (problem.code === 'unsupported_target_type') {
    const refusals = Array.isArray(extra['unsupported']) ? extra['unsupported'].filter(isRecord).map((entry) => ({ entity: str(entry['entity']), message: str(entry['message']) })) : [];
    return { kind: 'unsupported', problem, refusals };
  }
  return { kind: 'problem', problem };
}

// --- words ----------------------------------------------------------------------------------

const WARNING_TITLES: Readonly<Record<string, string>> = {
  too_many_playlists: 'More playlists than the safe default',
  too_many_tracks: 'More tracks than the safe default',
  daily_target_limit: 'Many tracks for the target account today',
  jobs_too_close: 'Another migration started moments ago',
  same_name_different_songs: 'A playlist of the same name already exists on the target',
  quota_limited: 'The target service’s daily quota is nearly used up',
  links_for_another_service: 'Songs that are only links to another service',
};

export function warningTitle(code: string): string {
  return WARNING_TITLES[code] ?? 'Please check before starting';
}

const JOB_STATUS_LABELS: Readonly<Record<string, string>> = {
  queued: 'Queued',
  running: 'Running',
  awaiting_review: 'Waiting for your review',
  paused: 'Paused',
  completed: 'Completed',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

export function jobStatusLabel(status: string): string {
  return JOB_STATUS_LABELS[status] ?? status;
}

const OUTCOME_LABELS: Readonly<Record<string, string>> = { pending: 'Not started', running: 'In progress', completed: 'Everything migrated', partial: 'Partly migrated', failed: 'Failed' };

export function outcomeLabel(outcome: string): string {
  return OUTCOME_LABELS[outcome] ?? outcome;
}

const ITEM_STATUS_LABELS: Readonly<Record<string, string>> = { pending: 'Pending', matched: 'Matched', needs_review: 'Needs review', written: 'Written', skipped: 'Skipped', failed: 'Failed' };

export function itemStatusLabel(status: string): string {
  return ITEM_STATUS_LABELS[status] ?? status;
}

const ENTITY_LABELS: Readonly<Record<string, string>> = { track: 'Track', album: 'Album', artist: 'Artist' };

export function entityTypeLabel(type: string): string {
  return ENTITY_LABELS[type] ?? type;
}

/** Whether the job has reached an end the worker will not leave by itself. */
export function isFinished(status: string): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/** Why a paused job waits, and what the user can do about it. */
export function pauseExplanation(job: MigrationJob): string {
  if (job.errorCode === 'auth_expired') return `The sign-in of an account in this migration expired. Reconnect it on Connections, then press Resume.`;
  if (job.resumeAt) return `The service’s quota is used up for now. The migration continues by itself after ${job.resumeAt}, or press Resume to try earlier.`;
  return job.error ?? 'The migration is paused. Press Resume to continue.';
}

/** A match score (0–1) as a percentage. */
export function formatScore(score: number | null): string {
  return score === null ? '—' : `${Math.round(score * 100)}%`;
}
