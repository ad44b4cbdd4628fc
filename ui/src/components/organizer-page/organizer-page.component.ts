import { html, nothing, type TemplateResult } from 'lit';
import { ACCOUNTS_PATH, accountFullName, parseAccounts, type AccountView } from '../../api/connections.ts';
import { apiRequest } from '../../api/http.ts';
import {
  ACTION_LABELS,
  ORGANIZER_ACTIONS_SHOWN,
  isFinished,
  looksLike,
  ORGANIZER_DUPLICATES_PATH,
  ORGANIZER_JOBS_PATH,
  ORGANIZER_PREFLIGHT_PATH,
  organizerJobPath,
  organizerPlaylistsPath,
  playlistTracksPath,
  RELATION_LABELS,
  type DuplicatePair,
  type OrganizerAction,
  type OrganizerJob,
  type Availability,
  type ChosenEntries,
  type OrganizerPlaylist,
  type OrganizerPlaylists,
  type Preflight,
} from '../../api/organizer.ts';
import { ORGANIZER_GROUP_KEY, takeGroupHandover, type GroupHandover } from '../../api/library-group-actions.ts';
import type { Problem } from '../../api/problem.ts';
import { formStyles } from '../../theme/form.styles.ts';
import { hrefFor } from '../../router/route.ts';
import { pageStyles } from '../../theme/page.styles.ts';
import { panelStyles } from '../../theme/panel.styles.ts';
import { sharedStyles } from '../../theme/shared.styles.ts';
import { tableStyles } from '../../theme/table.styles.ts';
import { FocusTarget, OplPage } from '../kit/index.ts';
import '../organizer-song-duplicates/index.ts';
import '../problem-notice/index.ts';
import { duplicatesSection, focusCopy } from './organizer-duplicates.template.ts';
import { organizerJobPanel } from './organizer-job.template.ts';
import { organizerPageStyles } from './organizer-page.styles.ts';

interface TrackRow {
  position: number;
  uri: string | null;
  entryId: string | null;
  title: string;
  artist: string;
}

const UNEXPECTED = (path: string): Problem => ({ title: 'Unexpected answer from the engine', status: 200, detail: `${path} did not return the documented fields.` });

/**
 * Organizer: choose an account, see each playlist with what can be done to it (and why not), run
 * a preflight, read exactly what will happen (songs as a diff), type the phrase, and follow the
 * job. The engine enforces every rule; this page never decides what is allowed.
 */
export class OplOrganizerPage extends OplPage {
  static override styles = [sharedStyles, pageStyles, panelStyles, tableStyles, formStyles, organizerPageStyles];

  static override properties = {
    _accounts: { state: true },
    _accountId: { state: true },
    _playlists: { state: true },
    _providerActions: { state: true },
    _tracks: { state: true },
    _selected: { state: true },
    _preflight: { state: true },
    _phrase: { state: true },
    _job: { state: true },
    _pairs: { state: true },
    _fromLibrary: { state: true },
    _showAllPairs: { state: true },
    _problem: { state: true },
    _busy: { state: true },
  };

  declare _accounts: readonly AccountView[] | undefined;
  declare _accountId: string;
  declare _playlists: readonly OrganizerPlaylist[] | undefined;
  /** What the account's provider offers at all: an action it lacks is explained once, above the table. */
  declare _providerActions: OrganizerPlaylists['provider_actions'] | undefined;
  /** Song removal: the playlist whose entries are being chosen. */
  declare _tracks: { playlist: OrganizerPlaylist; rows: readonly TrackRow[] } | undefined;
  declare _selected: ReadonlySet<number>;
  declare _preflight: Preflight | undefined;
  declare _phrase: string;
  declare _job: OrganizerJob | undefined;
  declare _pairs: readonly DuplicatePair[] | undefined;
  /** A Library group opened here ("Duplicates…"): its account is chosen, scanned, and the pairs narrowed to its playlists. */
  declare _fromLibrary: GroupHandover | undefined;
  declare _showAllPairs: boolean;
  declare _problem: Problem | undefined;
  declare _busy: boolean;
  #poll: ReturnType<typeof setTimeout> | undefined;
  readonly #focus = new FocusTarget();

  constructor() {
    super();
    this._accounts = undefined;
    this._accountId = '';
    this._playlists = undefined;
    this._providerActions = undefined;
    this._tracks = undefined;
    this._selected = new Set();
    this._preflight = undefined;
    this._phrase = '';
    this._job = undefined;
    this._pairs = undefined;
    this._fromLibrary = undefined;
    this._showAllPairs = false;
    this._problem = undefined;
    this._busy = false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this._fromLibrary = takeGroupHandover(ORGANIZER_GROUP_KEY);
    void this.#loadAccounts().then(() => this.#openLibraryGroup());
  }

  async #openLibraryGroup(): Promise<void> {
    const group = this._fromLibrary;
    if (!group || !this._accounts) return;
    const copy = focusCopy(group, this._accounts.map((account) => account.id));
    if (!copy) return;
    await this.#chooseAccount(copy.accountId);
    if (this._playlists) await this.#scanDuplicates();
  }

  override updated(): void {
    this.#focus.apply(this.renderRoot);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.#poll);
  }

  async #loadAccounts(): Promise<void> {
    const result = await apiRequest(ACCOUNTS_PATH);
    if (!result.ok) {
      this._problem = result.problem;
      return;
    }
    this._accounts = parseAccounts(result.data) ?? [];
  }

  async #chooseAccount(accountId: string): Promise<void> {
    this._accountId = accountId;
    this.#resetFlow();
    this._playlists = undefined;
    this._pairs = undefined;
    if (accountId) await this.#loadPlaylists(false);
  }

  #resetFlow(): void {
    this._tracks = undefined;
    this._selected = new Set();
    this._preflight = undefined;
    this._phrase = '';
    this._problem = undefined;
  }

  async #loadPlaylists(refresh: boolean): Promise<void> {
    const path = organizerPlaylistsPath(this._accountId, refresh);
    const result = await apiRequest(path, { timeoutMs: 60_000 });
    if (!result.ok) {
      this._problem = result.problem;
      return;
    }
    if (!looksLike<OrganizerPlaylists>(result.data, ['playlists', 'provider_actions'])) {
      this._problem = UNEXPECTED(path);
      return;
    }
    this._playlists = result.data.playlists;
    this._providerActions = result.data.provider_actions;
  }

  async #startAction(playlist: OrganizerPlaylist, action: OrganizerAction): Promise<void> {
    this.#resetFlow();
    this._job = undefined;
    if (action === 'remove_tracks') {
      await this.#loadTracks(playlist);
      return;
    }
    await this.#runPreflight({ account_id: this._accountId, action, playlist_ids: [playlist.id] });
  }

  async #loadTracks(playlist: OrganizerPlaylist): Promise<void> {
    const path = playlistTracksPath(this._accountId, playlist.id);
    this._busy = true;
    const result = await apiRequest(path, { timeoutMs: 60_000 });
    this._busy = false;
    if (!result.ok) {
      this._problem = result.problem;
      return;
    }
    const body = result.data as { playlist?: { tracks?: { title: string; artist: string; provider_uris: Record<string, string>; source_item_id: string | null }[] } };
    const account = this._accounts?.find((candidate) => candidate.id === this._accountId);
    const tracks = body.playlist?.tracks;
    if (!tracks || !account) {
      this._problem = UNEXPECTED(path);
      return;
    }
    this._tracks = { playlist, rows: tracks.map((track, position) => ({ position, uri: track.provider_uris[account.provider] ?? null, entryId: track.source_item_id, title: track.title, artist: track.artist })) };
    this.#focus.set('song-picker-heading');
  }

  #toggle(position: number, on: boolean): void {
    const next = new Set(this._selected);
    if (on) next.add(position);
    else next.delete(position);
    this._selected = next;
  }

  async #preflightSongs(): Promise<void> {
    const current = this._tracks;
    if (!current) return;
    const entries = current.rows.filter((row) => this._selected.has(row.position) && row.uri !== null).map((row) => ({ position: row.position, uri: row.uri, entry_id: row.entryId }));
    await this.#runPreflight({ account_id: this._accountId, action: 'remove_tracks', playlist_id: current.playlist.id, entries });
  }

  /** Entries chosen in the duplicate-songs review: the same preflight as a hand-made selection. */
  async #removeChosen(chosen: ChosenEntries): Promise<void> {
    this.#resetFlow();
    this._job = undefined;
    await this.#runPreflight({ account_id: this._accountId, action: 'remove_tracks', playlist_id: chosen.playlistId, entries: chosen.entries });
  }

  async #runPreflight(body: Record<string, unknown>): Promise<void> {
    this._busy = true;
    this._problem = undefined;
    const result = await apiRequest(ORGANIZER_PREFLIGHT_PATH, { method: 'POST', json: body, timeoutMs: 60_000 });
    this._busy = false;
    if (!result.ok) {
      this._problem = result.problem;
      return;
    }
    if (!looksLike<Preflight>(result.data, ['token', 'playlists'])) {
      this._problem = UNEXPECTED(ORGANIZER_PREFLIGHT_PATH);
      return;
    }
    this._preflight = result.data;
    this.#focus.set('preflight-heading');
  }

  async #confirm(): Promise<void> {
    const preflight = this._preflight;
    if (!preflight) return;
    this._busy = true;
    const result = await apiRequest(ORGANIZER_JOBS_PATH, { method: 'POST', json: { preflight_token: preflight.token, confirmation: preflight.confirmation_phrase === null ? null : this._phrase } });
    this._busy = false;
    if (!result.ok) {
      this._problem = result.problem;
      return;
    }
    this._preflight = undefined;
    this._tracks = undefined;
    // The playlist is about to change: an earlier duplicate scan of it no longer holds.
    this.renderRoot.querySelector('opl-organizer-song-duplicates')?.reset();
    this._job = result.data as OrganizerJob;
    this.#focus.set('job-heading');
    this.#follow();
  }

  #follow(): void {
    clearTimeout(this.#poll);
    const job = this._job;
    if (!job || isFinished(job)) {
      if (job && this._accountId) void this.#loadPlaylists(false);
      return;
    }
    this.#poll = setTimeout(() => {
      void apiRequest(organizerJobPath(job.id)).then((result) => {
        if (result.ok) this._job = result.data as OrganizerJob;
        this.#follow();
      });
    }, 700);
  }

  async #retry(): Promise<void> {
    const job = this._job;
    if (!job) return;
    const result = await apiRequest(`${organizerJobPath(job.id)}/retry`, { method: 'POST', json: {} });
    if (!result.ok) {
      this._problem = result.problem;
      return;
    }
    this._job = result.data as OrganizerJob;
    this.#follow();
  }

  async #undo(): Promise<void> {
    const job = this._job;
    if (!job) return;
    const result = await apiRequest(`${organizerJobPath(job.id)}/undo`, { method: 'POST', json: {} });
    if (!result.ok) {
      this._problem = result.problem;
      return;
    }
    this._job = result.data as OrganizerJob;
    this.#follow();
  }

  async #scanDuplicates(): Promise<void> {
    this._busy = true;
    const result = await apiRequest(ORGANIZER_DUPLICATES_PATH, { method: 'POST', json: { scope: 'playlists', account_id: this._accountId }, timeoutMs: 120_000 });
    this._busy = false;
    if (!result.ok) {
      this._problem = result.problem;
      return;
    }
    this._pairs = (result.data as { pairs: DuplicatePair[] }).pairs;
  }

  #actionCell(playlist: OrganizerPlaylist, action: OrganizerAction): TemplateResult {
    const state = playlist.actions[action];
    if (!state.available) return html`<td class="unavailable" data-action=${action}>${state.reason}</td>`;
    return html`<td data-action=${action}>
      <button type="button" class=${action === 'delete_playlist' ? 'danger' : ''} aria-label=${`${ACTION_LABELS[action]}: ${playlist.name}`} @click=${() => void this.#startAction(playlist, action)}>${ACTION_LABELS[action]}</button>
    </td>`;
  }

  /** False when the provider offers the action for no playlist at all. */
  #offered(action: OrganizerAction): boolean {
    return this._providerActions?.[action].available !== false;
  }

  /** The table's action columns: an action the provider offers for no playlist has none (the note above says why). */
  #columns(): OrganizerAction[] {
    return ORGANIZER_ACTIONS_SHOWN.filter((action) => this.#offered(action));
  }

  /** What the provider does not offer at all, said once instead of on every row. */
  #providerLimits(): TemplateResult | typeof nothing {
    const missing = ORGANIZER_ACTIONS_SHOWN.flatMap((action): [OrganizerAction, Availability][] => (this.#offered(action) ? [] : [[action, this._providerActions![action]]]));
    if (missing.length === 0) return nothing;
    return html`<div class="note" data-testid="provider-limits">
      <strong>Not offered for any playlist of this account (so the table has no column for it)</strong>
      <ul>
        ${missing.map(([action, state]) => html`<li data-action=${action}><span class="action-name">${ACTION_LABELS[action].replace('…', '')}:</span> ${state.reason}</li>`)}
      </ul>
    </div>`;
  }

  #playlistRow(playlist: OrganizerPlaylist, columns: readonly OrganizerAction[]): TemplateResult {
    const cells =
      playlist.relation === 'liked_collection'
        ? // One reason for the whole row: the same words in every cell would say nothing more.
          html`<td class="unavailable" colspan=${columns.length} data-action="all">${playlist.actions.unfollow_playlist.reason}</td>`
        : columns.map((action) => this.#actionCell(playlist, action));
    return html`<tr data-testid="organizer-row" data-playlist=${playlist.name}>
      <th scope="row">${playlist.name}</th>
      <td>${RELATION_LABELS[playlist.relation] ?? playlist.relation}</td>
      ${cells}
    </tr>`;
  }

  #playlistTable(playlists: readonly OrganizerPlaylist[]): TemplateResult {
    const columns = this.#columns();
    return html`<div class="table-scroll" role="region" aria-labelledby="organizer-playlists-heading" tabindex="0">
      <table data-testid="organizer-playlists">
        <thead>
          <tr>
            <th scope="col">Playlist</th>
            <th scope="col">Whose</th>
            ${columns.map((action) => html`<th scope="col">${ACTION_LABELS[action].replace('…', '')}</th>`)}
          </tr>
        </thead>
        <tbody>
          ${playlists.map((playlist) => this.#playlistRow(playlist, columns))}
        </tbody>
      </table>
    </div>`;
  }

  #songPicker(): TemplateResult | typeof nothing {
    const current = this._tracks;
    if (!current || this._preflight) return nothing;
    return html`<section aria-labelledby="song-picker-heading" data-testid="song-picker">
      <h2 id="song-picker-heading" tabindex="-1">Choose the songs to remove from “${current.playlist.name}”</h2>
      <p>Only the entries you tick are removed; copies you do not tick stay.</p>
      <ol class="songs" start="0">
        ${current.rows.map(
          (row) => html`<li>
            <label>
              <input type="checkbox" data-position=${row.position} ?disabled=${row.uri === null} .checked=${this._selected.has(row.position)} @change=${(event: Event) => this.#toggle(row.position, (event.target as HTMLInputElement).checked)} />
              <span class="position">${row.position + 1}.</span> ${row.title} — ${row.artist}
            </label>
          </li>`,
        )}
      </ol>
      <p>
        <button type="button" ?disabled=${this._selected.size === 0 || this._busy} @click=${() => void this.#preflightSongs()}>Check removal of ${this._selected.size} song${this._selected.size === 1 ? '' : 's'}</button>
        <button type="button" @click=${() => this.#resetFlow()}>Cancel</button>
      </p>
    </section>`;
  }

  #preflightPanel(): TemplateResult | typeof nothing {
    const preflight = this._preflight;
    if (!preflight) return nothing;
    const phrase = preflight.confirmation_phrase;
    const ready = phrase === null || this._phrase.normalize('NFC') === phrase.normalize('NFC');
    return html`<section aria-labelledby="preflight-heading" data-testid="preflight">
      <h2 id="preflight-heading" tabindex="-1">What will happen</h2>
      ${preflight.playlists.map(
        (playlist) => html`<div class="planned">
          <p data-testid="effect">${playlist.effect}</p>
          ${playlist.ownership ? html`<p class="evidence">Ownership confirmed: ${playlist.ownership.evidence}.</p>` : nothing}
          ${playlist.removals
            ? html`<ul class="diff" aria-label="Entries that will be removed">
                ${playlist.removals.map((removal) => html`<li class="removed" data-position=${removal.position}><del>${removal.position + 1}. ${removal.title} — ${removal.artist}</del></li>`)}
              </ul>`
            : nothing}
          ${playlist.warnings.map((warning) => html`<p class="warning" data-code=${warning.code}>${warning.message}</p>`)}
        </div>`,
      )}
      ${phrase !== null
        ? html`<p class="phrase">
            <label for="organizer-phrase">Type <strong>${phrase}</strong> to confirm</label>
            <input id="organizer-phrase" type="text" data-testid="phrase" autocomplete="off" .value=${this._phrase} @input=${(event: Event) => (this._phrase = (event.target as HTMLInputElement).value)} />
          </p>`
        : nothing}
      <p>
        <button type="button" class=${preflight.action === 'delete_playlist' ? 'danger' : 'primary'} ?disabled=${!ready || this._busy} @click=${() => void this.#confirm()}>Confirm</button>
        <button type="button" @click=${() => this.#resetFlow()}>Cancel</button>
      </p>
    </section>`;
  }

  #jobPanel(): TemplateResult | typeof nothing {
    const job = this._job;
    if (!job) return nothing;
    return organizerJobPanel(job, { retry: () => void this.#retry(), undo: () => void this.#undo() });
  }

  override render(): TemplateResult {
    const accounts = this._accounts;
    return html`
      ${this.summary ? html`<p class="summary">${this.summary}</p>` : nothing}
      ${this._problem ? html`<opl-problem-notice .problem=${this._problem} data-testid="organizer-problem"></opl-problem-notice>` : nothing}
      <section aria-labelledby="organizer-account-heading">
        <h2 id="organizer-account-heading">Account</h2>
        ${accounts === undefined
          ? html`<p role="status">Loading your accounts…</p>`
          : accounts.length === 0
            ? html`<p class="empty" data-testid="no-accounts">No account is connected yet. <a href=${hrefFor('connections')}>Connect one on Connections</a> first, then come back.</p>`
            : html`<div class="account-field">
                <label for="organizer-account">Connected account</label>
                <select id="organizer-account" data-testid="organizer-account" @change=${(event: Event) => void this.#chooseAccount((event.target as HTMLSelectElement).value)}>
                  <option value="">Choose an account</option>
                  ${accounts.map((account) => html`<option value=${account.id} ?selected=${account.id === this._accountId}>${accountFullName(account)}</option>`)}
                </select>
              </div>`}
      </section>
      ${this.#jobPanel()} ${this.#preflightPanel()} ${this.#songPicker()}
      ${this._playlists
        ? html`<section aria-labelledby="organizer-playlists-heading">
              <h2 id="organizer-playlists-heading">Playlists</h2>
              <p><button type="button" @click=${() => void this.#loadPlaylists(true)}>Read the playlists again</button></p>
              ${this.#providerLimits()} ${this.#playlistTable(this._playlists)}
            </section>
            <section aria-labelledby="song-duplicates-heading" data-testid="song-duplicates">
              <h2 id="song-duplicates-heading">Repeated songs in a playlist</h2>
              <p>Only pointed out: nothing is removed until you tick copies, check the removal and type the phrase.</p>
              <opl-organizer-song-duplicates
                .accountId=${this._accountId}
                .playlists=${this._playlists}
                ?busy=${this._busy}
                @organizer-remove-entries=${(event: CustomEvent<ChosenEntries>) => void this.#removeChosen(event.detail)}
              ></opl-organizer-song-duplicates>
            </section>
            ${duplicatesSection(
              { pairs: this._pairs, busy: this._busy, fromLibrary: this._fromLibrary, showAll: this._showAllPairs, accountId: this._accountId },
              { scan: () => void this.#scanDuplicates(), showAll: () => (this._showAllPairs = true) },
            )}`
        : nothing}
    `;
  }
}
