import { html, nothing, type TemplateResult } from 'lit';
import { ACCOUNTS_PATH, accountFullName, parseAccounts, type AccountView } from '../../api/connections.ts';
import {
  defaultControls,
  DRAFTS_PATH,
  draftEventsPath,
  draftItemPath,
  draftPath,
  formatDuration,
  GENERATOR_CONFIG_PATH,
  parseConfig,
  parseDraft,
  parseDraftSummary,
  parseItem,
  parseSearchResults,
  wordList,
  type Controls,
  type DraftItem,
  type DraftSummary,
  type GeneratorConfig,
  type SearchResult,
} from '../../api/generator.ts';
import { apiRequest } from '../../api/http.ts';
import { unexpectedAnswer, type Problem } from '../../api/problem.ts';
import { hrefFor } from '../../router/route.ts';
import { formStyles } from '../../theme/form.styles.ts';
import { pageStyles } from '../../theme/page.styles.ts';
import { panelStyles } from '../../theme/panel.styles.ts';
import { sharedStyles } from '../../theme/shared.styles.ts';
import { tagStyles } from '../../theme/tag.styles.ts';
import { FocusTarget, OplPage } from '../kit/index.ts';
import { accessHint } from '../problem-notice/access-hint.ts';
import '../problem-notice/index.ts';
import { draftEditor } from './draft-editor.template.ts';
import { confirmPanel, endAnnouncement, generationProgress } from './draft-status.template.ts';
import { generationForm, type WordField } from './generation-form.template.ts';
import { generatorPageStyles } from './generator-page.styles.ts';
import { loadFailedNotice } from '../problem-notice/load-failed.template.ts';

type Load = { readonly state: 'loading' } | { readonly state: 'loaded'; readonly config: GeneratorConfig; readonly accounts: readonly AccountView[] } | { readonly state: 'failed'; readonly problem: Problem };

const EMPTY_WORDS: Record<WordField, string> = { genres: '', moods: '', eras: '', seed_artists: '', seed_tracks: '' };

/**
 * Generator: a prompt and music controls go to the model the admin configured (or the demo model),
 * its songs are found on the chosen account's service while the page watches (server-sent events),
 * and the result is a private draft to edit, approve and write there as an ordinary migration.
 */
export class OplGeneratorPage extends OplPage {
  static override styles = [sharedStyles, pageStyles, panelStyles, formStyles, tagStyles, generatorPageStyles];

  static override properties = {
    _load: { state: true },
    _targetId: { state: true },
    _prompt: { state: true },
    _promptError: { state: true },
    _controls: { state: true },
    _words: { state: true },
    _draft: { state: true },
    _items: { state: true },
    _order: { state: true },
    _busy: { state: true },
    _problem: { state: true },
    _replacing: { state: true },
    _searchText: { state: true },
    _results: { state: true },
    _acknowledge: { state: true },
    _name: { state: true },
    _options: { state: true },
  };

  declare _load: Load;
  declare _targetId: string;
  declare _prompt: string;
  declare _promptError: string | null;
  declare _controls: Controls;
  declare _words: Record<WordField, string>;
  declare _draft: DraftSummary | undefined;
  declare _items: ReadonlyMap<string, DraftItem>;
  declare _order: readonly string[];
  /** What is being done right now (a request in flight), for busy buttons. */
  declare _busy: string | undefined;
  declare _problem: Problem | undefined;
  declare _replacing: string | undefined;
  declare _searchText: string;
  declare _results: readonly SearchResult[] | undefined;
  declare _acknowledge: boolean;
  declare _name: string;
  /** Per request, off unless chosen: the library's leanings (`use_preferences`); only the listener's own songs (`grounding`). */
  declare _options: { use_preferences: boolean; grounding: 'open' | 'library' };

  #events: EventSource | undefined;
  readonly #focus = new FocusTarget();

  constructor() {
    super();
    this._load = { state: 'loading' };
    this._targetId = '';
    this._prompt = '';
    this._promptError = null;
    this._controls = defaultControls();
    this._words = { ...EMPTY_WORDS };
    this._draft = undefined;
    this._items = new Map();
    this._order = [];
    this._busy = undefined;
    this._problem = undefined;
    this._replacing = undefined;
    this._searchText = '';
    this._results = undefined;
    this._acknowledge = false;
    this._name = '';
    this._options = { use_preferences: false, grounding: 'open' };
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.#loadConfig();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#closeEvents();
  }

  protected override updated(): void {
    if (this.shadowRoot) this.#focus.apply(this.shadowRoot);
  }

  async #loadConfig(): Promise<void> {
    this._load = { state: 'loading' };
    const [config, accounts] = await Promise.all([apiRequest(GENERATOR_CONFIG_PATH), apiRequest(ACCOUNTS_PATH)]);
    if (!config.ok) return void (this._load = { state: 'failed', problem: config.problem });
    if (!accounts.ok) return void (this._load = { state: 'failed', problem: accounts.problem });
    const parsed = parseConfig(config.data);
    const list = parseAccounts(accounts.data);
    if (!parsed || !list) return void (this._load = { state: 'failed', problem: unexpectedAnswer(config.status, `GET ${GENERATOR_CONFIG_PATH}`) });
    const usable = list.filter((account) => account.status === 'connected');
    this._load = { state: 'loaded', config: parsed, accounts: usable };
    if (!usable.some((account) => account.id === this._targetId)) this._targetId = usable[0]?.id ?? '';
  }

  // --- generation and its live progress -------------------------------------------------------

  #request(): { prompt: string; controls: Controls } | undefined {
    const prompt = this._prompt.trim();
    if (prompt === '') {
      this._promptError = 'Describe the playlist first: the engine does not keep your words, so it needs them for every generation.';
      this.#focus.set('prompt');
      return undefined;
    }
    this._promptError = null;
    const controls: Controls = { ...this._controls };
    for (const field of Object.keys(EMPTY_WORDS) as WordField[]) controls[field] = wordList(this._words[field]);
    return { prompt, controls };
  }

  async #generate(): Promise<void> {
    if (this._busy || this._draft?.status === 'generating') return;
    const request = this.#request();
    const account = this.#accounts().find((entry) => entry.id === this._targetId);
    if (!request || !account) return;
    await this.#run('generate', `${DRAFTS_PATH}?wait=false`, { target_provider: account.provider, target_account_id: account.id, generation: request, ...this._options }, 'Generating: the model is choosing songs.');
  }

  async #regenerate(scope: 'all' | 'open_slots'): Promise<void> {
    const draft = this._draft;
    if (this._busy || !draft) return;
    const request = this.#request();
    if (!request) return;
    const what = scope === 'all' ? 'Generating every song again.' : 'Generating songs for the open slots.';
    await this.#run('regenerate', `${draftPath(draft.id)}/regenerate?wait=false`, { scope, prompt: request.prompt, controls: request.controls, ...this._options }, what);
  }

  async #run(busy: string, path: string, body: unknown, announcement: string): Promise<void> {
    this._busy = busy;
    this._problem = undefined;
    const result = await apiRequest(path, { method: 'POST', json: body });
    this._busy = undefined;
    if (!result.ok) {
      this._problem = result.problem;
      this._announcement = `Not generated: ${result.problem.title}.`;
      return;
    }
    const draft = parseDraft(result.data);
    if (!draft) return void (this._problem = unexpectedAnswer(result.status, `POST ${path}`));
    this.#setDraft(draft);
    this._acknowledge = false;
    this._announcement = announcement;
    this.#follow(draft.id);
    this.#focus.set('draft-heading');
  }

  /** Every change of the draft arrives as an event (EventSource resumes with Last-Event-ID by itself). */
  #follow(draftId: string): void {
    this.#closeEvents();
    const events = new EventSource(draftEventsPath(draftId));
    this.#events = events;
    events.addEventListener('item', (event: MessageEvent<string>) => {
      if (this._draft?.id !== draftId) return;
      const item = parseItem(JSON.parse(event.data) as unknown);
      if (!item) return;
      this._items = new Map(this._items).set(item.id, item);
      if (!this._order.includes(item.id)) this._order = [...this._order, item.id];
    });
    events.addEventListener('draft', (event: MessageEvent<string>) => {
      if (this._draft?.id !== draftId) return;
      const summary = parseDraftSummary(JSON.parse(event.data) as unknown);
      if (!summary) return;
      this._draft = summary;
      if (summary.itemOrder) {
        this._order = summary.itemOrder;
        const kept = new Map([...this._items].filter(([id]) => summary.itemOrder!.includes(id)));
        this._items = kept;
      }
      if (summary.status !== 'generating') {
        this.#closeEvents();
        this._announcement = endAnnouncement(summary, this.#orderedItems());
      }
    });
  }

  #closeEvents(): void {
    this.#events?.close();
    this.#events = undefined;
  }

  async #cancel(): Promise<void> {
    const draft = this._draft;
    if (!draft || this._busy) return;
    this._busy = 'cancel';
    const result = await apiRequest(`${draftPath(draft.id)}/cancel`, { method: 'POST', json: {} });
    this._busy = undefined;
    if (!result.ok && result.status !== 409) this._problem = result.problem;
    else this._announcement = 'Cancelling the generation…';
  }

  // --- editing ---------------------------------------------------------------------------------

  #setDraft(draft: ReturnType<typeof parseDraft> & object): void {
    const { items, ...summary } = draft;
    this._draft = summary;
    this._items = new Map(items.map((item) => [item.id, item]));
    this._order = items.map((item) => item.id);
    this._name = draft.name;
  }

  /** One edit: the answer is the whole draft as it now is. */
  async #edit(busy: string, path: string, method: 'POST' | 'PATCH', body: unknown, announcement: string, focus?: string): Promise<boolean> {
    if (this._busy) return false;
    this._busy = busy;
    this._problem = undefined;
    const result = await apiRequest(path, { method, json: body });
    this._busy = undefined;
    if (!result.ok) {
      this._problem = result.problem;
      this._announcement = `Not changed: ${result.problem.title}.`;
      return false;
    }
    const draft = parseDraft(result.data);
    if (!draft) {
      this._problem = unexpectedAnswer(result.status, `${method} ${path}`);
      return false;
    }
    this.#setDraft(draft);
    this._announcement = announcement;
    if (focus) this.#focus.set(focus);
    return true;
  }

  #orderedItems(): DraftItem[] {
    return this._order.map((id) => this._items.get(id)).filter((item): item is DraftItem => item !== undefined);
  }

  async #reorder(ids: string[], moved: DraftItem, focus: string): Promise<void> {
    const draft = this._draft!;
    await this.#edit('reorder', `${draftPath(draft.id)}/reorder`, 'POST', { item_ids: ids }, `Moved “${moved.title}” to position ${ids.indexOf(moved.id) + 1} of ${ids.length}.`, focus);
  }

  #move(item: DraftItem, by: number): void {
    const ids = [...this._order];
    const from = ids.indexOf(item.id);
    const to = from + by;
    if (from < 0 || to < 0 || to >= ids.length) return;
    ids.splice(from, 1);
    ids.splice(to, 0, item.id);
    void this.#reorder(ids, item, `handle-${item.id}`);
  }

  #drop(draggedId: string, ontoId: string): void {
    const item = this._items.get(draggedId);
    const ids = this._order.filter((id) => id !== draggedId);
    const at = ids.indexOf(ontoId);
    if (!item || at < 0) return;
    ids.splice(this._order.indexOf(draggedId) < this._order.indexOf(ontoId) ? at + 1 : at, 0, draggedId);
    void this.#reorder(ids, item, `handle-${item.id}`);
  }

  async #approveAll(): Promise<void> {
    const draft = this._draft;
    if (!draft) return;
    const waiting = this.#orderedItems().filter((entry) => entry.status === 'resolved' && !entry.approved);
    for (const item of waiting) {
      if (!(await this.#edit('approve', draftItemPath(draft.id, item.id), 'PATCH', { approved: true }, 'Approved every song found.'))) return;
    }
    if (waiting.length === 0) this._announcement = 'Every song found was already approved.';
  }

  async #search(): Promise<void> {
    const draft = this._draft;
    const text = this._searchText.trim();
    if (!draft || text === '' || this._busy) return;
    this._busy = 'search';
    const result = await apiRequest(`${draftPath(draft.id)}/search`, { method: 'POST', json: { text } });
    this._busy = undefined;
    if (!result.ok) return void (this._problem = result.problem);
    this._results = parseSearchResults(result.data) ?? [];
    this._announcement = `${this._results.length} results for “${text}”.`;
  }

  async #confirm(): Promise<void> {
    const draft = this._draft;
    if (!draft || this._busy) return;
    this._busy = 'confirm';
    this._problem = undefined;
    const result = await apiRequest(`${draftPath(draft.id)}/confirm`, { method: 'POST', json: { acknowledge_warnings: this._acknowledge } });
    this._busy = undefined;
    if (!result.ok) {
      this._problem = result.problem;
      this._announcement = `Not written: ${result.problem.title}.`;
      return;
    }
    const job = (result.data as { job?: { id?: unknown } } | undefined)?.job;
    this._draft = { ...draft, status: 'confirmed', migrationJobId: typeof job?.id === 'string' ? job.id : draft.migrationJobId };
    this._announcement = 'Confirmed: the migration that writes the approved songs has started.';
    this.#focus.set('job-link');
  }

  // --- rendering -------------------------------------------------------------------------------

  #accounts(): readonly AccountView[] {
    return this._load.state === 'loaded' ? this._load.accounts : [];
  }

  #draftSection(draft: DraftSummary, config: GeneratorConfig): TemplateResult {
    const items = this.#orderedItems();
    const editable = draft.status === 'draft' || draft.status === 'approved';
    const live = items.filter((item) => item.status !== 'removed');
    const approved = live.filter((item) => item.status === 'resolved' && item.approved);
    const open = items.filter((item) => item.status === 'unresolved' || item.status === 'removed').length;
    const account = this.#accounts().find((entry) => entry.id === draft.targetAccountId);
    const target = account ? accountFullName(account) : draft.targetProvider;
    const busy = this._busy !== undefined;
    return html`<section aria-labelledby="draft-heading" data-testid="draft" data-draft-id=${draft.id} data-status=${draft.status}>
      <h2 id="draft-heading" tabindex="-1">Draft: ${draft.name} ${config.demo || draft.generation['demo'] === true ? html`<span class="badge" data-testid="demo-badge">demo</span>` : nothing}</h2>
      <p>Private to you. Songs found on ${target}. ${approved.length} approved of ${live.length}, ${formatDuration(approved.reduce((sum, item) => sum + (item.durationS ?? 0), 0))} long.</p>
      ${generationProgress(draft, items, this._busy !== undefined, () => void this.#cancel())}
      ${editable
        ? html`<form
            class="inline"
            @submit=${(event: Event) => {
              event.preventDefault();
              void this.#edit('rename', draftPath(draft.id), 'PATCH', { name: this._name }, `Renamed to “${this._name}”.`);
            }}
          >
            <label for="draft-name">Playlist name</label>
            <input id="draft-name" type="text" maxlength="200" .value=${this._name} @input=${(event: Event) => (this._name = (event.target as HTMLInputElement).value)} />
            <button type="submit" aria-disabled=${busy ? 'true' : 'false'}>Rename</button>
          </form>`
        : nothing}
      ${draftEditor(
        { items, editable: editable && !busy, replacing: this._replacing },
        {
          approve: (item, value) => void this.#edit('approve', draftItemPath(draft.id, item.id), 'PATCH', { approved: value }, `${value ? 'Approved' : 'Unapproved'} “${item.title}”.`),
          remove: (item, removed) => void this.#edit('remove', draftItemPath(draft.id, item.id), 'PATCH', { removed }, `${removed ? 'Removed' : 'Restored'} “${item.title}”.`, `item-action-${item.id}`),
          move: (item, by) => this.#move(item, by),
          drop: (dragged, onto) => this.#drop(dragged, onto),
          toggleReplace: (item) => (this._replacing = this._replacing === item.id ? undefined : item.id),
          replace: (item, uri) => {
            void this.#edit('replace', `${draftItemPath(draft.id, item.id)}/replace`, 'POST', { target_uri: uri }, `Replaced “${item.title}”.`).then((done) => {
              if (done) this._replacing = undefined;
            });
          },
        },
      )}
      ${editable
        ? html`<div class="toolbar" role="group" aria-label="Whole draft">
              <button type="button" data-action="approve-all" aria-disabled=${busy ? 'true' : 'false'} @click=${() => void this.#approveAll()}>Approve every song found</button>
              <button type="button" data-action="regenerate-open" aria-disabled=${busy || open === 0 ? 'true' : 'false'} @click=${() => open > 0 && void this.#regenerate('open_slots')}>Generate the ${open} open slots again</button>
              <button type="button" data-action="regenerate-all" aria-disabled=${busy ? 'true' : 'false'} @click=${() => void this.#regenerate('all')}>Generate all again</button>
            </div>
            ${this.#searchPanel(draft)} ${confirmPanel(draft, approved.length, target, { acknowledged: this._acknowledge, busy }, { acknowledge: (value) => (this._acknowledge = value), confirm: () => void this.#confirm() })}`
        : nothing}
      ${draft.status === 'failed' ? html`<p><button type="button" data-action="regenerate-all" @click=${() => void this.#regenerate('all')}>Generate again</button></p>` : nothing}
      ${draft.migrationJobId
        ? html`<p class="note" data-testid="confirmed"><strong>Written as a migration.</strong> Follow it, its report and its outcome in
            <a id="job-link" data-testid="job-link" data-job-id=${draft.migrationJobId} href=${`${hrefFor('history')}`}>History (migration ${draft.migrationJobId.slice(0, 8)})</a>.</p>`
        : nothing}
    </section>`;
  }

  #searchPanel(draft: DraftSummary): TemplateResult {
    const replacing = this._replacing ? this._items.get(this._replacing) : undefined;
    return html`<form
        class="inline"
        role="search"
        aria-label="Add a song"
        @submit=${(event: Event) => {
          event.preventDefault();
          void this.#search();
        }}
      >
        <label for="search-text">${replacing ? `Add a song, or replace “${replacing.title}”: search the target` : 'Add a song: search the target'}</label>
        <input id="search-text" type="search" maxlength="500" .value=${this._searchText} @input=${(event: Event) => (this._searchText = (event.target as HTMLInputElement).value)} />
        <button type="submit" aria-disabled=${this._busy ? 'true' : 'false'}>Search</button>
      </form>
      ${this._results
        ? html`<ul class="results" data-testid="search-results" aria-label="Search results">
            ${this._results.length === 0 ? html`<li class="empty">No results.</li>` : nothing}
            ${this._results.map(
              (result) => html`<li data-uri=${result.uri}>
                <span>${result.title} — ${result.artist}${result.album ? html` <span class="muted">(${result.album})</span>` : nothing}</span>
                ${replacing
                  ? html`<button
                      type="button"
                      data-action="use-result"
                      aria-label=${`Use ${result.title} by ${result.artist} instead of ${replacing.title}`}
                      @click=${() =>
                        void this.#edit('replace', `${draftItemPath(draft.id, replacing.id)}/replace`, 'POST', { target_uri: result.uri, text: this._searchText.trim() }, `Replaced “${replacing.title}” with “${result.title}”.`).then((done) => {
                          if (done) this._replacing = undefined;
                        })}
                    >
                      Use instead of “${replacing.title}”
                    </button>`
                  : nothing}
                <button
                  type="button"
                  data-action="add"
                  aria-label=${`Add ${result.title} by ${result.artist}`}
                  @click=${() => void this.#edit('add', `${draftPath(draft.id)}/items`, 'POST', { text: this._searchText.trim(), target_uri: result.uri }, `Added “${result.title}” at the end.`)}
                >
                  Add
                </button>
              </li>`,
            )}
          </ul>`
        : nothing}`;
  }

  #body(): TemplateResult {
    const load = this._load;
    if (load.state === 'loading') return html`<p role="status">Loading the generator…</p>`;
    if (load.state === 'failed') {
      return loadFailedNotice(load.problem, () => void this.#loadConfig());
    }
    const { config } = load;
    if (!config.available) {
      return html`<section aria-labelledby="setup-heading" data-testid="generator-unconfigured">
        <h2 id="setup-heading">No model is configured</h2>
        <p>The generator asks a language model that you run yourself (any server with the OpenAI chat-completions API: Ollama, llama.cpp's server, LM Studio, vLLM, LocalAI). ${config.message}</p>
        <ol>
          <li>Start a local model server, for example <code>ollama serve</code> and <code>ollama pull llama3.1:8b</code>, or <code>llama-server -m model.gguf --port 8080</code>.</li>
          <li>Set <code>OPL_GENERATOR_URL</code> (e.g. <code>http://127.0.0.1:11434/v1</code>) and <code>OPL_GENERATOR_MODEL</code> (e.g. <code>llama3.1:8b</code>); optionally <code>OPL_GENERATOR_API_KEY</code>.</li>
          <li>Restart the engine. Or try the whole flow with the built-in demo model: start the engine with <code>OPL_DEMO=1</code>.</li>
        </ol>
      </section>`;
    }
    return html`${config.demo
        ? html`<p class="note" data-testid="demo-model"><strong>Demo model <span class="badge">demo</span></strong> It picks songs of the demo catalogue from the words of your request, so you can try the whole flow without a model of your own.</p>`
        : html`<p data-testid="model-name">Model: <code>${config.model}</code>, run by you.</p>`}
      <section>
        ${generationForm(
          { config, accounts: load.accounts, targetId: this._targetId, prompt: this._prompt, controls: this._controls, words: this._words, busy: this._busy !== undefined || this._draft?.status === 'generating', promptError: this._promptError, usePreferences: this._options.use_preferences, fromLibrary: this._options.grounding === 'library' },
          {
            prompt: (value) => (this._prompt = value),
            preferences: (value) => (this._options = { ...this._options, use_preferences: value }),
            library: (value) => (this._options = { ...this._options, grounding: value ? 'library' : 'open' }),
            target: (id) => (this._targetId = id),
            words: (field, value) => (this._words = { ...this._words, [field]: value }),
            control: (key, value) => (this._controls = { ...this._controls, [key]: value }),
            generate: () => void this.#generate(),
          },
        )}
      </section>
      ${this._draft ? this.#draftSection(this._draft, config) : nothing}`;
  }

  override render(): TemplateResult {
    return html`${this.summary ? html`<p class="summary">${this.summary}</p>` : nothing}
      ${this._problem ? html`<opl-problem-notice .problem=${this._problem} data-testid="generator-problem">${accessHint(this._problem)}</opl-problem-notice>` : nothing} ${this.#body()}
      <span class="visually-hidden" role="status" aria-live="polite" data-testid="announcement">${this._announcement}</span>`;
  }
}
