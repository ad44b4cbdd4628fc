import { createHash, randomUUID } from 'node:crypto';
import type { Manifest } from '@opl/plugin-sdk';
import type { ConnectionService } from '../connections/connection.service.ts';
import { MatchService, type GraphTransaction, type SqlExecutor } from '../matching/index.ts';
import { ModelError, type ChatModelClient } from './chat-model.client.ts';
import { GENERATOR_LIMITS, generationMessages, songsToAsk, type GenerationSpec, type PreferenceSummary } from './generation-request.ts';
import { resolveIntents } from './intent-resolver.ts';
import { appendDraftItem, deleteDraft, deleteExpiredDrafts, insertDraft, insertDraftItems, renameDraft, reorderDraftItems, selectDraft, selectDraftItems, selectDrafts, updateDraftItem } from './generator.sql.ts';
import type { MigrationService } from '../migrations/migration.service.ts';
import { GENERATED_SOURCE } from '../migrations/migration-request.ts';
import type { JobView } from '../migrations/migration-views.ts';
import { INTENT_LIMITS } from './track-intents.ts';

/**
 * The playlist generator: a prompt and controls go to the configured model; its song intents are
 * resolved to real tracks of the chosen target; the result is a private, editable draft. The raw
 * prompt lives only in this call's memory: the draft stores its controls, a hash of the prompt
 * and what happened (model, output mode, searches, what was dropped), never the words.
 */

export type GeneratorErrorCode = 'generator_unavailable' | 'draft_not_found' | 'provider_unsupported' | 'nothing_resolved' | 'draft_not_editable';

export class GeneratorError extends Error {
  readonly code: GeneratorErrorCode;
  constructor(code: GeneratorErrorCode, message: string) {
    super(message);
    this.name = 'GeneratorError';
    this.code = code;
  }
}

export interface GeneratorConfigView {
  available: boolean;
  backend: 'openai_compatible';
  model: string;
  /** Demo mode's built-in model: it proposes songs of the demo catalogue. */
  demo: boolean;
  message: string;
  limits: { max_prompt_chars: number; max_output_chars: number; max_tracks: number };
}

export interface CreateDraftRequest {
  target_provider: string;
  target_account_id: string;
  generation: GenerationSpec;
}

export interface DraftItemView {
  id: string;
  position: number;
  status: 'resolved' | 'unresolved' | 'removed';
  approved: boolean;
  target_uri: string | null;
  title: string;
  artist: string;
  album: string | null;
  duration_s: number | null;
  isrc: string | null;
  explicit: boolean | null;
  confidence: number | null;
  reason: string | null;
  /** What the model proposed (its words), for unresolved items above all. */
  intent: { title: string; artist: string; album: string | null; release_year: number | null; reason: string | null } | null;
}

export interface SearchResultView {
  uri: string;
  title: string;
  artist: string;
  album: string | null;
  duration_s: number | null;
  explicit: boolean | null;
}

export interface DraftView {
  id: string;
  name: string;
  status: string;
  target_provider: string;
  target_account_id: string;
  controls: Record<string, unknown>;
  generation: Record<string, unknown>;
  migration_job_id: string | null;
  expires_at: string;
  created_at: string;
  counts: { resolved: number; unresolved: number; approved: number; duration_s: number };
  items: DraftItemView[];
}

interface Dependencies {
  execute: SqlExecutor;
  transaction: GraphTransaction;
  connections: Pick<ConnectionService, 'get' | 'call'>;
  catalogue: { providerPlugin(provider: string): Manifest | undefined };
  /** The operations a loaded plugin implements (the target must have `searchTracks`). */
  pluginOperations: (pluginId: string) => readonly string[];
  /** Null when no model is configured. */
  model: ChatModelClient | null;
  /** Confirmation creates an ordinary migration job from the draft. */
  migrations: Pick<MigrationService, 'create' | 'get'>;
  demo: boolean;
  maxOutputBytes: number;
  draftTtlHours: number;
}

const SEARCH_LIMIT = 10;
const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : String(value));
const json = (value: unknown) => (typeof value === 'string' ? (JSON.parse(value) as unknown) : value);

function itemView(row: Record<string, unknown>): DraftItemView {
  const intent = json(row['intent']) as DraftItemView['intent'];
  return {
    id: String(row['id']),
    position: Number(row['position']),
    status: row['status'] as DraftItemView['status'],
    approved: row['approved'] === true,
    target_uri: (row['target_uri'] as string | null) ?? null,
    title: String(row['title']),
    artist: String(row['artist']),
    album: (row['album'] as string | null) ?? null,
    duration_s: row['duration_s'] === null ? null : Number(row['duration_s']),
    isrc: (row['isrc'] as string | null) ?? null,
    explicit: (row['explicit'] as boolean | null) ?? null,
    confidence: row['confidence'] === null ? null : Number(row['confidence']),
    reason: (row['reason'] as string | null) ?? null,
    intent: intent ?? null,
  };
}

export class GeneratorService {
  readonly #d: Dependencies;

  constructor(dependencies: Dependencies) {
    this.#d = dependencies;
  }

  config(): GeneratorConfigView {
    const limits = { max_prompt_chars: GENERATOR_LIMITS.maxPromptChars, max_output_chars: this.#d.maxOutputBytes, max_tracks: GENERATOR_LIMITS.maxTracks };
    if (!this.#d.model) {
      return {
        available: false,
        backend: 'openai_compatible',
        model: '',
        demo: false,
        message:
          'No model is configured. Run a local OpenAI-compatible server (Ollama: `ollama serve`, then `ollama pull llama3.1:8b`; or llama.cpp: `llama-server -m model.gguf`) and set OPL_GENERATOR_URL (e.g. http://127.0.0.1:11434/v1) and OPL_GENERATOR_MODEL, then restart the engine.',
        limits,
      };
    }
    return {
      available: true,
      backend: 'openai_compatible',
      model: this.#d.model.model,
      demo: this.#d.demo,
      message: this.#d.demo ? 'Demo model: it proposes songs of the demo catalogue from the words of your request.' : `Model ${this.#d.model.model} is configured.`,
      limits,
    };
  }

  /**
   * Asks the model, resolves its songs on the target and stores the draft. `signal` ends the work
   * when the client goes away. Model failures surface as `ModelError` (typed, prompt-free).
   */
  async createDraft(ownerId: string, request: CreateDraftRequest, preferences: PreferenceSummary | null, signal?: AbortSignal): Promise<DraftView> {
    const model = this.#d.model;
    if (!model) throw new GeneratorError('generator_unavailable', this.config().message);
    const account = await this.#d.connections.get(ownerId, request.target_account_id);
    if (account.provider !== request.target_provider) {
      throw new GeneratorError('provider_unsupported', `Account ${request.target_account_id} is a ${account.provider} account, not ${request.target_provider}.`);
    }
    const manifest = this.#d.catalogue.providerPlugin(account.provider);
    if (!manifest || !this.#d.pluginOperations(manifest.id).includes('searchTracks')) {
      throw new GeneratorError('provider_unsupported', `${account.provider_display_name} cannot be searched for tracks, so songs cannot be found there.`);
    }
    const spec = request.generation;
    const count = songsToAsk(spec.controls);
    const started = performance.now();
    const proposed = await model.proposeIntents(generationMessages(spec, preferences), count, signal);
    const modelMs = performance.now() - started;
    const matching = new MatchService({
      execute: this.#d.execute,
      transaction: this.#d.transaction,
      catalogue: this.#d.catalogue,
      plugins: { call: (_pluginId, _op, input) => this.#d.connections.call(ownerId, account.id, 'searchTracks', input) },
    });
    const resolved = await resolveIntents(proposed.intents, {
      matching,
      target: { provider: account.provider, pluginId: manifest.id, accountId: account.id },
      controls: spec.controls,
      cancelled: () => signal?.aborted === true,
    });
    if (signal?.aborted) throw new ModelError('model_cancelled', 'The generation was cancelled.');
    const resolveMs = performance.now() - started - modelMs;
    const generation = {
      model: model.model,
      demo: this.#d.demo,
      output_mode: proposed.mode,
      repaired: proposed.repaired,
      asked: count,
      proposed: proposed.intents.length,
      resolved: resolved.items.filter((item) => item.status === 'resolved').length,
      unresolved: resolved.items.filter((item) => item.status === 'unresolved').length,
      searches: resolved.searches,
      duplicates_dropped: resolved.duplicates,
      explicit_filtered: resolved.explicitFiltered,
      duration_trimmed: resolved.durationTrimmed,
      notes: proposed.notes,
      /** Time spent waiting for the model, and resolving its songs on the target (searches, scoring). */
      model_ms: Math.round(modelMs),
      resolve_ms: Math.round(resolveMs),
    };
    const id = randomUUID();
    const name = this.#nameFor(spec);
    await this.#d.transaction(async (execute) => {
      await execute(
        insertDraft({
          id,
          ownerId,
          targetProvider: account.provider,
          targetAccountId: account.id,
          name,
          controls: spec.controls,
          promptHash: createHash('sha256').update(spec.prompt).digest('hex'),
          generation,
          ttlHours: this.#d.draftTtlHours,
        }),
      );
      if (resolved.items.length === 0) return;
      await execute(
        insertDraftItems(
          id,
          ownerId,
          resolved.items.map((item) => ({
            status: item.status,
            approved: item.approved,
            targetUri: item.target?.uri ?? null,
            targetId: item.target?.id ?? null,
            title: item.target?.title ?? item.intent.title,
            artist: item.target?.artist ?? item.intent.artist,
            album: item.target?.album ?? item.intent.album,
            durationS: item.target?.durationS ?? null,
            isrc: item.target?.isrc ?? null,
            explicit: item.target?.explicit ?? null,
            confidence: item.confidence,
            reason: item.reason,
            intent: { ...item.intent },
          })),
        ),
      );
    });
    return this.draft(ownerId, id);
  }

  /**
   * A name from the controls, never from the prompt: the prompt is not stored anywhere, and a
   * name is (the user renames the draft as they like).
   */
  #nameFor(spec: GenerationSpec): string {
    const words = [...spec.controls.moods, ...spec.controls.genres].slice(0, 3);
    const name = words.length > 0 ? `Generated: ${words.join(', ')}` : `Generated playlist ${new Date().toISOString().slice(0, 10)}`;
    return name.slice(0, INTENT_LIMITS.title);
  }

  async draft(ownerId: string, draftId: string): Promise<DraftView> {
    const [row] = await this.#d.execute(selectDraft(ownerId, draftId));
    if (!row) throw new GeneratorError('draft_not_found', `No draft ${draftId} (it may have expired).`);
    const items = (await this.#d.execute(selectDraftItems(ownerId, draftId))).map(itemView);
    return this.#view(row, items);
  }

  async drafts(ownerId: string): Promise<Omit<DraftView, 'items'>[]> {
    const rows = await this.#d.execute(selectDrafts(ownerId, 100));
    return Promise.all(
      rows.map(async (row) => {
        const { items: _items, ...rest } = this.#view(row, (await this.#d.execute(selectDraftItems(ownerId, String(row['id'])))).map(itemView));
        return rest;
      }),
    );
  }

  async rename(ownerId: string, draftId: string, name: string): Promise<DraftView> {
    if ((await this.#d.execute(renameDraft(ownerId, draftId, name))).length === 0) await this.#refuseEdit(ownerId, draftId);
    return this.draft(ownerId, draftId);
  }

  /** Approve or unapprove, remove or restore one item. */
  async updateItem(ownerId: string, draftId: string, itemId: string, change: { approved?: boolean; removed?: boolean }): Promise<DraftView> {
    if ((await this.#d.execute(updateDraftItem(ownerId, draftId, itemId, change))).length === 0) {
      const draft = await this.#refuseEdit(ownerId, draftId);
      const item = draft.items.find((entry) => entry.id === itemId);
      if (!item) throw new GeneratorError('draft_not_found', `The draft has no item ${itemId}.`);
      throw new GeneratorError('draft_not_editable', item.target_uri === null ? `"${item.title}" was not found on the target, so it cannot be approved; remove it, or replace it with a search.` : `"${item.title}" is removed; restore it before approving it.`);
    }
    return this.draft(ownerId, draftId);
  }

  /** Searches the draft's target by free text, for a song to add (the target's own results). */
  async search(ownerId: string, draftId: string, text: string): Promise<SearchResultView[]> {
    const draft = await this.#refuseEdit(ownerId, draftId);
    const { candidates } = await this.#d.connections.call(ownerId, draft.target_account_id, 'searchTracks', {
      query: { isrc: null, title: null, artist: null, album: null, duration_s: null, text },
      mode: 'text',
      limit: SEARCH_LIMIT,
    });
    return candidates
      .map((track) => ({ uri: track.provider_uris[draft.target_provider] ?? null, title: track.title, artist: track.artist, album: track.album, duration_s: track.duration_s, explicit: track.explicit }))
      .filter((result): result is SearchResultView => result.uri !== null);
  }

  /**
   * Adds a song found by `search`: the same search runs again and the chosen URI must be among its
   * results, so what the draft shows is what the target said, never what a client claims.
   */
  async addFromSearch(ownerId: string, draftId: string, text: string, targetUri: string): Promise<DraftView> {
    const draft = await this.#refuseEdit(ownerId, draftId);
    const { candidates } = await this.#d.connections.call(ownerId, draft.target_account_id, 'searchTracks', {
      query: { isrc: null, title: null, artist: null, album: null, duration_s: null, text },
      mode: 'text',
      limit: SEARCH_LIMIT,
    });
    const track = candidates.find((candidate) => candidate.provider_uris[draft.target_provider] === targetUri);
    if (!track) throw new GeneratorError('draft_not_editable', `${targetUri} is not among the target's results for this search; search again and choose one of them.`);
    if (draft.items.some((item) => item.target_uri === targetUri && item.status !== 'removed')) throw new GeneratorError('draft_not_editable', `"${track.title}" is already in the draft.`);
    const added = await this.#d.execute(
      appendDraftItem(ownerId, draftId, {
        status: 'resolved',
        approved: true,
        targetUri,
        targetId: track.id,
        title: track.title,
        artist: track.artist,
        album: track.album,
        durationS: track.duration_s,
        isrc: track.isrc,
        explicit: track.explicit,
        confidence: null,
        reason: 'Added by you from a search.',
        intent: {},
      }),
    );
    if (added.length === 0) await this.#refuseEdit(ownerId, draftId);
    return this.draft(ownerId, draftId);
  }

  /** Puts the items in the order given: every item of the draft exactly once. */
  async reorder(ownerId: string, draftId: string, itemIds: readonly string[]): Promise<DraftView> {
    const draft = await this.#refuseEdit(ownerId, draftId);
    const current = new Set(draft.items.map((item) => item.id));
    if (itemIds.length !== current.size || new Set(itemIds).size !== itemIds.length || itemIds.some((id) => !current.has(id))) {
      throw new GeneratorError('draft_not_editable', `The new order must list each of the draft's ${current.size} items exactly once.`);
    }
    await this.#d.execute(reorderDraftItems(ownerId, draftId, itemIds));
    return this.draft(ownerId, draftId);
  }

  /** Why an edit changed nothing: the draft is gone, or no longer a draft. Returns the draft when it is editable. */
  async #refuseEdit(ownerId: string, draftId: string): Promise<DraftView> {
    const draft = await this.draft(ownerId, draftId);
    if (draft.status !== 'draft' && draft.status !== 'approved') throw new GeneratorError('draft_not_editable', `The draft is ${draft.status}; it can no longer be changed.`);
    return draft;
  }

  /**
   * Snapshots the approved tracks into an ordinary migration job (`source_kind = generated`) that
   * writes them to the draft's target. Idempotent: a confirmed draft answers its job again.
   */
  async confirm(ownerId: string, draftId: string, acknowledgeWarnings: boolean): Promise<{ created: boolean; job: JobView }> {
    const draft = await this.draft(ownerId, draftId);
    if (draft.migration_job_id) return { created: false, job: await this.#d.migrations.get(ownerId, draft.migration_job_id) };
    try {
      const job = await this.#d.migrations.create(ownerId, {
        source_provider: GENERATED_SOURCE,
        source_account_id: draftId,
        source_snapshot_id: null,
        target_provider: draft.target_provider,
        target_account_id: draft.target_account_id,
        selection: { playlist_ids: [draftId], tracks: {}, saved_album_ids: [], followed_artist_ids: [] },
        strictness: 'same_recording',
        acknowledge_warnings: acknowledgeWarnings,
      });
      return { created: true, job };
    } catch (error) {
      // A second confirmation that raced the first: the draft now names the first one's job.
      const again = await this.draft(ownerId, draftId).catch(() => null);
      if (again?.migration_job_id) return { created: false, job: await this.#d.migrations.get(ownerId, again.migration_job_id) };
      throw error;
    }
  }

  /** Deletes up to `batchSize` expired unconfirmed drafts; returns how many. */
  async purgeExpired(batchSize: number): Promise<number> {
    return (await this.#d.execute(deleteExpiredDrafts(batchSize))).length;
  }

  async deleteDraft(ownerId: string, draftId: string): Promise<void> {
    const rows = await this.#d.execute(deleteDraft(ownerId, draftId));
    if (rows.length > 0) return;
    const draft = await this.draft(ownerId, draftId);
    throw new GeneratorError('draft_not_editable', `The draft is the source of migration ${draft.migration_job_id ?? ''}; it stays as long as that migration's history.`);
  }

  #view(row: Record<string, unknown>, items: DraftItemView[]): DraftView {
    const live = items.filter((item) => item.status !== 'removed');
    return {
      id: String(row['id']),
      name: String(row['name']),
      status: String(row['status']),
      target_provider: String(row['target_provider']),
      target_account_id: String(row['target_account_id']),
      controls: json(row['controls']) as Record<string, unknown>,
      generation: json(row['generation']) as Record<string, unknown>,
      migration_job_id: (row['migration_job_id'] as string | null) ?? null,
      expires_at: iso(row['expires_at']),
      created_at: iso(row['created_at']),
      counts: {
        resolved: live.filter((item) => item.status === 'resolved').length,
        unresolved: live.filter((item) => item.status === 'unresolved').length,
        approved: live.filter((item) => item.approved && item.status === 'resolved').length,
        duration_s: live.reduce((total, item) => total + (item.status === 'resolved' ? (item.duration_s ?? 0) : 0), 0),
      },
      items,
    };
  }
}
