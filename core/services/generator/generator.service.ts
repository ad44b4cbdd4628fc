import { createHash, randomUUID } from 'node:crypto';
import type { Manifest, Track } from '@opl/plugin-sdk';
import type { ConnectionService } from '../connections/connection.service.ts';
import { MatchService, type GraphTransaction, type MatchTarget, type SqlExecutor } from '../matching/index.ts';
import type { ProgressChannel } from '../migrations/migration-events.ts';
import { ModelError, type ChatModelClient } from './chat-model.client.ts';
import { cancelRequested, runGeneration, type GenerationOutcome, type GenerationRun } from './draft-generation.ts';
import { summarizePreferences } from './preference-summary.ts';
import { draftEventsAfter, type GenerationEvent } from './generator-events.ts';
import { draftView, itemView, type DraftItemView, type DraftView } from './draft-views.ts';
import { GENERATOR_LIMITS, generatorControlsSchema, type GenerationSpec, type PreferenceSummary } from './generation-request.ts';
import { beginRegeneration, endAbandonedGenerations, replaceItemTrack, requestCancel } from './generation-run.sql.ts';
import { appendDraftItem, deleteDraft, deleteExpiredDrafts, insertDraft, renameDraft, reorderDraftItems, selectDraft, selectDraftItems, selectDrafts, updateDraftItem } from './generator.sql.ts';
import type { MigrationService } from '../migrations/migration.service.ts';
import { GENERATED_SOURCE } from '../migrations/migration-request.ts';
import type { JobView } from '../migrations/migration-views.ts';
import { INTENT_LIMITS } from './track-intents.ts';
import { groundingOf, targetValidator } from './library-grounding.ts';
import { libraryKey, OPEN_GROUNDING, type Grounding } from './library-offer.ts';
import { offerLibrary, type SnapshotReader } from './library-tracks.ts';

/**
 * The playlist generator: a prompt and controls go to the configured model; its song intents are
 * resolved to real tracks of the chosen target; the result is a private, editable draft. The raw
 * prompt lives only in this call's memory: the draft stores its controls, a hash of the prompt
 * and what happened (model, output mode, searches, what was dropped), never the words.
 */

export type GeneratorErrorCode = 'generator_unavailable' | 'draft_not_found' | 'provider_unsupported' | 'nothing_resolved' | 'draft_not_editable' | 'library_empty';

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
  /** Open (the model names any song) unless `library` (it chooses among the listener's own tracks). */
  grounding?: Grounding | undefined;
}

export interface SearchResultView {
  uri: string;
  title: string;
  artist: string;
  album: string | null;
  duration_s: number | null;
  explicit: boolean | null;
}

export type { DraftItemView, DraftView };

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
  /** The generation progress channel: how a generation running here learns of a cancel made through another process. */
  progress?: Pick<ProgressChannel, 'subscribe'>;
  /** The owner's snapshots, a source of library-grounded generation. */
  snapshots?: SnapshotReader;
}

export interface RegenerateRequest {
  scope: 'all' | 'open_slots';
  prompt: string;
  /** The draft's own controls when absent ("regenerate with the same controls"). */
  controls?: Record<string, unknown> | undefined;
  /** The draft's own grounding when absent (a new sampling seed unless one is given). */
  grounding?: Grounding | undefined;
}

const SEARCH_LIMIT = 10;
/** A generation with no change for this long lost its process (crash, restart) and is ended by the maintenance job. */
const ABANDONED_GENERATION_MINUTES = 30;
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

  /** The draft's target: a connected account whose plugin can search tracks. */
  async #target(ownerId: string, provider: string, accountId: string): Promise<MatchTarget & { displayName: string }> {
    const account = await this.#d.connections.get(ownerId, accountId);
    if (account.provider !== provider) throw new GeneratorError('provider_unsupported', `Account ${accountId} is a ${account.provider} account, not ${provider}.`);
    const manifest = this.#d.catalogue.providerPlugin(account.provider);
    if (!manifest || !this.#d.pluginOperations(manifest.id).includes('searchTracks')) {
      throw new GeneratorError('provider_unsupported', `${account.provider_display_name} cannot be searched for tracks, so songs cannot be found there.`);
    }
    return { provider: account.provider, pluginId: manifest.id, accountId: account.id, displayName: account.provider_display_name };
  }

  #model(): ChatModelClient {
    if (!this.#d.model) throw new GeneratorError('generator_unavailable', this.config().message);
    return this.#d.model;
  }

  /**
   * Creates the draft at once (`generating`) and runs the generation in the background: the model
   * call, then each song's search, written to the rows as they go (the progress stream shows them).
   * `done` settles when it ends; the draft then says how (see `runGeneration`).
   */
  async startDraft(ownerId: string, request: CreateDraftRequest, preferences: PreferenceSummary | null, signal?: AbortSignal): Promise<{ draft: DraftView; done: Promise<GenerationOutcome> }> {
    const model = this.#model();
    const target = await this.#target(ownerId, request.target_provider, request.target_account_id);
    const spec = request.generation;
    const library = await this.#offer(ownerId, request.grounding ?? OPEN_GROUNDING, spec);
    const id = randomUUID();
    await this.#d.execute(
      insertDraft({
        id,
        ownerId,
        targetProvider: target.provider,
        targetAccountId: target.accountId,
        name: this.#nameFor(spec),
        controls: spec.controls,
        promptHash: createHash('sha256').update(spec.prompt).digest('hex'),
        generation: { phase: 'model', scope: 'all', model: model.model, demo: this.#d.demo, preferences_used: preferences !== null, grounding: library.record },
        ttlHours: this.#d.draftTtlHours,
        status: 'generating',
      }),
    );
    const { done } = await this.#launch(target, { ownerId, draftId: id, spec, preferences, scope: { kind: 'all' }, library: library.offer }, signal);
    return { draft: await this.draft(ownerId, id), done };
  }

  /**
   * Generates and waits: the draft comes back when it is complete. A failure or a cancellation
   * (`signal`: the client went away) leaves no draft behind and is thrown (typed, prompt-free).
   */
  async createDraft(ownerId: string, request: CreateDraftRequest, preferences: PreferenceSummary | null, signal?: AbortSignal): Promise<DraftView> {
    const { draft, done } = await this.startDraft(ownerId, request, preferences, signal);
    const outcome = await done;
    if (outcome.error !== null || outcome.cancelled) {
      await this.#d.execute(deleteDraft(ownerId, draft.id));
      throw outcome.error ?? new ModelError('model_cancelled', 'The generation was cancelled.');
    }
    return this.draft(ownerId, draft.id);
  }

  /**
   * Asks the model again for the draft, with the same controls unless new ones are given (the
   * prompt is asked again: it was never stored): every song (`all`), or only the open slots
   * (unresolved or removed items, each refilled in place; the kept songs are named to the model so
   * it does not repeat them). Runs in the background like `startDraft`.
   */
  async regenerate(ownerId: string, draftId: string, request: RegenerateRequest, preferences: PreferenceSummary | null, signal?: AbortSignal): Promise<{ draft: DraftView; done: Promise<GenerationOutcome> }> {
    const model = this.#model();
    const draft = await this.draft(ownerId, draftId);
    if (!['draft', 'approved', 'failed'].includes(draft.status) || draft.migration_job_id) throw new GeneratorError('draft_not_editable', `The draft is ${draft.status}; it cannot be generated again now.`);
    const target = await this.#target(ownerId, draft.target_provider, draft.target_account_id);
    const controls = generatorControlsSchema.parse(request.controls ?? draft.controls);
    const spec: GenerationSpec = { prompt: request.prompt, controls };
    let scope: GenerationRun['scope'] = { kind: 'all' };
    if (request.scope === 'open_slots') {
      const slots = draft.items.filter((item) => item.status === 'unresolved' || item.status === 'removed');
      if (slots.length === 0) throw new GeneratorError('draft_not_editable', 'The draft has no open slot (an unresolved or removed song) to fill; regenerate all of it instead.');
      const keep = draft.items.filter((item) => item.status === 'resolved').map((item) => ({ title: item.title, artist: item.artist, uri: item.target_uri }));
      scope = { kind: 'open_slots', slotIds: slots.slice(0, GENERATOR_LIMITS.maxTracks).map((item) => item.id), keep };
    }
    // The draft's own grounding unless another is given; the kept songs are not offered again.
    const kept = scope.kind === 'open_slots' ? draft.items.filter((item) => item.status === 'resolved') : [];
    const library = await this.#offer(ownerId, request.grounding ?? groundingOf(draft.generation), spec, new Set(kept.map((item) => libraryKey(item))));
    const generation = { phase: 'model', scope: request.scope, model: model.model, demo: this.#d.demo, preferences_used: preferences !== null, grounding: library.record };
    const begun = await this.#d.execute(beginRegeneration(ownerId, draftId, controls, createHash('sha256').update(spec.prompt).digest('hex'), generation));
    if (begun.length === 0) throw new GeneratorError('draft_not_editable', 'The draft changed meanwhile (a generation runs, or it was confirmed); reload it.');
    const { done } = await this.#launch(target, { ownerId, draftId, spec, preferences, scope, library: library.offer }, signal);
    return { draft: await this.draft(ownerId, draftId), done };
  }

  /**
   * Library-grounded mode: the offered sample of the owner's own tracks (computed here, sent only
   * to the model of this request, never stored). Open mode offers nothing.
   */
  async #offer(ownerId: string, grounding: Grounding, spec: GenerationSpec, exclude?: ReadonlySet<string>): Promise<{ offer: GenerationRun['library']; record: Record<string, unknown> }> {
    if (grounding.mode === 'open') return { offer: null, record: { mode: 'open' } };
    const { offered, record } = await offerLibrary(this.#d.execute, this.#d.snapshots ?? null, ownerId, grounding.sources, spec.controls, exclude);
    if (offered.length === 0) {
      throw new GeneratorError('library_empty', 'Your library has no song to choose from for this request: read some playlists of a connected account, import a file or take a snapshot first (or check the explicit preference and the sources chosen), or generate in open mode.');
    }
    return { offer: { offered }, record };
  }

  /** Stops a running generation, whichever engine process runs it. The draft is left as `runGeneration` describes. */
  async cancel(ownerId: string, draftId: string): Promise<DraftView> {
    const asked = await this.#d.execute(requestCancel(ownerId, draftId));
    if (asked.length === 0) {
      const draft = await this.draft(ownerId, draftId);
      throw new GeneratorError('draft_not_editable', `The draft is ${draft.status}: no generation runs to cancel.`);
    }
    this.#running.get(draftId)?.abort();
    return this.draft(ownerId, draftId);
  }

  readonly #running = new Map<string, AbortController>();
  readonly #runs = new Set<Promise<unknown>>();

  async #launch(target: MatchTarget, run: GenerationRun, signal?: AbortSignal): Promise<{ done: Promise<GenerationOutcome> }> {
    const controller = new AbortController();
    if (signal?.aborted) controller.abort();
    signal?.addEventListener('abort', () => controller.abort(), { once: true });
    this.#running.set(run.draftId, controller);
    const execute = this.#d.execute;
    // A cancel made through another process reaches this one as the draft row's notification.
    const unsubscribe = this.#d.progress
      ? await this.#d.progress.subscribe(run.draftId, () => {
          void cancelRequested(execute, run.ownerId, run.draftId)
            .then((yes) => {
              if (yes) controller.abort();
            })
            .catch(() => undefined);
        })
      : () => undefined;
    const matching = new MatchService({
      execute,
      transaction: this.#d.transaction,
      catalogue: this.#d.catalogue,
      // A cancel aborts the search in flight (the plugin call and the sandbox's request), not only the next one.
      plugins: { call: (_pluginId, _op, input, _context, signal) => this.#d.connections.call(run.ownerId, target.accountId, 'searchTracks', input, signal) },
    });
    const validate = this.#d.pluginOperations(target.pluginId).includes('validateUri') ? targetValidator(this.#d.connections, run.ownerId, target.accountId, controller.signal) : undefined;
    const resolve = { matching, target, ...(validate ? { validate } : {}) };
    const done = runGeneration({ execute, transaction: this.#d.transaction, model: this.#model(), demo: this.#d.demo, resolve }, run, controller.signal).finally(() => {
      this.#running.delete(run.draftId);
      this.#runs.delete(done);
      unsubscribe();
    });
    this.#runs.add(done);
    return { done };
  }

  /** The opt-in summary of the owner's library (top artists and genres with counts), or null without the opt-in. */
  async preferences(ownerId: string, optIn: boolean): Promise<PreferenceSummary | null> {
    return optIn ? summarizePreferences(this.#d.execute, ownerId) : null;
  }

  /** The progress events of a draft after event id `after` (see `generator-events.ts`). */
  async eventsAfter(ownerId: string, draftId: string, after: number): Promise<GenerationEvent[]> {
    return draftEventsAfter(this.#d.execute, ownerId, draftId, after);
  }

  /** Calls `wake` whenever the draft or one of its items changes, in any engine process. */
  async follow(draftId: string, wake: () => void): Promise<() => void> {
    if (!this.#d.progress) return () => undefined;
    return this.#d.progress.subscribe(draftId, wake);
  }

  /** Stops the generations running in this process (shutdown): each leaves its draft in a clear state. */
  async close(): Promise<void> {
    for (const controller of this.#running.values()) controller.abort();
    await Promise.allSettled([...this.#runs]);
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
    return draftView(row, items);
  }

  async drafts(ownerId: string): Promise<Omit<DraftView, 'items'>[]> {
    const rows = await this.#d.execute(selectDrafts(ownerId, 100));
    return Promise.all(
      rows.map(async (row) => {
        const { items: _items, ...rest } = draftView(row, (await this.#d.execute(selectDraftItems(ownerId, String(row['id'])))).map(itemView));
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
    return (await this.#searchTarget(ownerId, draft, text))
      .map((track) => ({ uri: track.provider_uris[draft.target_provider] ?? null, title: track.title, artist: track.artist, album: track.album, duration_s: track.duration_s, explicit: track.explicit }))
      .filter((result): result is SearchResultView => result.uri !== null);
  }

  /**
   * Adds a song found by `search`: the same search runs again and the chosen URI must be among its
   * results, so what the draft shows is what the target said, never what a client claims.
   */
  async addFromSearch(ownerId: string, draftId: string, text: string, targetUri: string): Promise<DraftView> {
    const draft = await this.#refuseEdit(ownerId, draftId);
    const track = (await this.#searchTarget(ownerId, draft, text)).find((candidate) => candidate.provider_uris[draft.target_provider] === targetUri);
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

  /**
   * Replaces an item's track with another the target returned: one of the candidates kept when the
   * item was resolved, or (with `text`) a result of a new search of the target, which runs again
   * here so that what the draft shows is what the target said, never what a client claims.
   */
  async replaceItem(ownerId: string, draftId: string, itemId: string, choice: { target_uri: string; text?: string | undefined }): Promise<DraftView> {
    const draft = await this.#refuseEdit(ownerId, draftId);
    const item = draft.items.find((entry) => entry.id === itemId);
    if (!item) throw new GeneratorError('draft_not_found', `The draft has no item ${itemId}.`);
    if (item.status === 'pending') throw new GeneratorError('draft_not_editable', `"${item.title}" is still being searched.`);
    let track: { id: string; title: string; artist: string; album: string | null; duration_s: number | null; isrc: string | null; explicit: boolean | null } | undefined;
    let confidence: number | null = null;
    let reason: string;
    if (choice.text !== undefined) {
      track = (await this.#searchTarget(ownerId, draft, choice.text)).find((candidate) => candidate.provider_uris[draft.target_provider] === choice.target_uri) as (Track & { id: string }) | undefined;
      if (!track) throw new GeneratorError('draft_not_editable', `${choice.target_uri} is not among the target's results for this search; search again and choose one of them.`);
      reason = 'Replaced by you from a search.';
    } else {
      const candidate = item.candidates.find((entry) => entry.uri === choice.target_uri);
      if (!candidate) throw new GeneratorError('draft_not_editable', `${choice.target_uri} is not one of the candidates the target returned for this song; search for it instead.`);
      track = candidate;
      confidence = candidate.confidence;
      reason = `Replaced by you with another candidate. ${candidate.reason}`;
    }
    if (draft.items.some((entry) => entry.id !== itemId && entry.target_uri === choice.target_uri && entry.status !== 'removed')) throw new GeneratorError('draft_not_editable', `"${track.title}" is already in the draft.`);
    const replaced = await this.#d.execute(
      replaceItemTrack(ownerId, draftId, itemId, {
        status: 'resolved',
        approved: true,
        targetUri: choice.target_uri,
        targetId: track.id,
        title: track.title,
        artist: track.artist,
        album: track.album,
        durationS: track.duration_s,
        isrc: track.isrc,
        explicit: track.explicit,
        confidence,
        reason,
        intent: null,
      }),
    );
    if (replaced.length === 0) await this.#refuseEdit(ownerId, draftId);
    return this.draft(ownerId, draftId);
  }

  async #searchTarget(ownerId: string, draft: DraftView, text: string): Promise<Track[]> {
    const { candidates } = await this.#d.connections.call(ownerId, draft.target_account_id, 'searchTracks', {
      query: { isrc: null, title: null, artist: null, album: null, duration_s: null, text },
      mode: 'text',
      limit: SEARCH_LIMIT,
    });
    return candidates;
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
    for (const statement of endAbandonedGenerations(ABANDONED_GENERATION_MINUTES)) await this.#d.execute(statement);
    return (await this.#d.execute(deleteExpiredDrafts(batchSize))).length;
  }

  async deleteDraft(ownerId: string, draftId: string): Promise<void> {
    const rows = await this.#d.execute(deleteDraft(ownerId, draftId));
    if (rows.length > 0) return;
    const draft = await this.draft(ownerId, draftId);
    throw new GeneratorError('draft_not_editable', `The draft is the source of migration ${draft.migration_job_id ?? ''}; it stays as long as that migration's history.`);
  }
}
