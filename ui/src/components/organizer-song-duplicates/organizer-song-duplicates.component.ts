import { html, LitElement, nothing, type TemplateResult } from 'lit';
import { apiRequest } from '../../api/http.ts';
import {
  DUPLICATE_LEVEL_LABELS,
  DUPLICATE_LEVELS,
  looksLike,
  ORGANIZER_DUPLICATES_PATH,
  type ChosenEntries,
  type DuplicateEntry,
  type DuplicateGroup,
  type DuplicateLevel,
  type EntryDuplicates,
  type OrganizerPlaylist,
} from '../../api/organizer.ts';
import type { Problem } from '../../api/problem.ts';
import { formStyles } from '../../theme/form.styles.ts';
import { sharedStyles } from '../../theme/shared.styles.ts';
import { framedGroupStyles } from '../../theme/choice-group.styles.ts';
import { emit } from '../kit/index.ts';
import '../problem-notice/index.ts';
import { organizerSongDuplicatesStyles } from './organizer-song-duplicates.styles.ts';

type KeepPolicy = 'first' | 'last' | 'choose';

const KEEP_LABELS: Readonly<Record<KeepPolicy, string>> = {
  first: 'Keep the first copy of each song',
  last: 'Keep the last copy of each song',
  choose: 'I choose which copies to keep',
};

const entryLabel = (entry: DuplicateEntry) => `${entry.position + 1}. ${entry.title} — ${entry.artist}`;

/**
 * Repeated songs inside one playlist: pick a playlist and the match levels, scan (read-only), read
 * which entry repeats which and why, and tick the copies to remove. Nothing is ticked until the
 * user does it (by hand, or by applying the keep policy's suggestion with a button). The chosen
 * entries go to the page as `organizer-remove-entries`, which runs the song-removal preflight.
 */
export class OplOrganizerSongDuplicates extends LitElement {
  static override styles = [sharedStyles, formStyles, framedGroupStyles, organizerSongDuplicatesStyles];

  static override properties = {
    accountId: { attribute: false },
    playlists: { attribute: false },
    busy: { type: Boolean },
    _playlistId: { state: true },
    _levels: { state: true },
    _keep: { state: true },
    _result: { state: true },
    _chosen: { state: true },
    _scanning: { state: true },
    _problem: { state: true },
  };

  declare accountId: string;
  declare playlists: readonly OrganizerPlaylist[];
  /** The page is running a preflight or job: the hand-over button waits. */
  declare busy: boolean;
  declare _playlistId: string;
  declare _levels: ReadonlySet<DuplicateLevel>;
  declare _keep: KeepPolicy;
  declare _result: EntryDuplicates | undefined;
  declare _chosen: ReadonlySet<number>;
  declare _scanning: boolean;
  declare _problem: Problem | undefined;

  constructor() {
    super();
    this.accountId = '';
    this.playlists = [];
    this.busy = false;
    this._playlistId = '';
    this._levels = new Set<DuplicateLevel>(['same_id', 'same_isrc']);
    this._keep = 'first';
    this._result = undefined;
    this._chosen = new Set();
    this._scanning = false;
    this._problem = undefined;
  }

  /** Forget the scan (the page calls this after a removal changed the playlist). */
  reset(): void {
    this._result = undefined;
    this._chosen = new Set();
  }

  #choosePlaylist(playlistId: string): void {
    this._playlistId = playlistId;
    this.reset();
    this._problem = undefined;
  }

  #toggleLevel(level: DuplicateLevel, on: boolean): void {
    const next = new Set(this._levels);
    if (on) next.add(level);
    else next.delete(level);
    this._levels = next;
  }

  async #scan(): Promise<void> {
    this._scanning = true;
    this._problem = undefined;
    this.reset();
    const json = { scope: 'entries', account_id: this.accountId, playlist_id: this._playlistId, levels: DUPLICATE_LEVELS.filter((level) => this._levels.has(level)), keep: this._keep === 'last' ? 'last' : 'first' };
    const result = await apiRequest(ORGANIZER_DUPLICATES_PATH, { method: 'POST', json, timeoutMs: 120_000 });
    this._scanning = false;
    if (!result.ok) {
      this._problem = result.problem;
      return;
    }
    if (!looksLike<EntryDuplicates>(result.data, ['groups', 'proposed_removals'])) {
      this._problem = { title: 'Unexpected answer from the engine', status: 200, detail: `${ORGANIZER_DUPLICATES_PATH} did not return the documented fields.` };
      return;
    }
    this._result = result.data;
  }

  #toggle(position: number, on: boolean): void {
    const next = new Set(this._chosen);
    if (on) next.add(position);
    else next.delete(position);
    this._chosen = next;
  }

  #handOver(): void {
    const result = this._result;
    if (!result) return;
    const entries = result.groups
      .flatMap((group) => [group.original, ...group.duplicates])
      .filter((entry) => this._chosen.has(entry.position) && entry.uri !== null)
      .sort((a, b) => a.position - b.position)
      .map((entry) => ({ position: entry.position, uri: entry.uri!, entry_id: entry.entry_id }));
    const detail: ChosenEntries = { playlistId: result.playlist_id, entries };
    emit(this, 'organizer-remove-entries', detail);
  }

  #entry(entry: DuplicateEntry, role: TemplateResult): TemplateResult {
    return html`<label>
      <input type="checkbox" data-position=${entry.position} ?disabled=${entry.uri === null} .checked=${this._chosen.has(entry.position)} @change=${(event: Event) => this.#toggle(entry.position, (event.target as HTMLInputElement).checked)} />
      ${entryLabel(entry)} ${role}
    </label>`;
  }

  #group(group: DuplicateGroup): TemplateResult {
    const copies = [group.original, ...group.duplicates];
    const everyCopy = copies.every((entry) => this._chosen.has(entry.position));
    return html`<li class="group" data-testid="duplicate-group" data-original=${group.original.position}>
      <ul>
        <li>${this.#entry(group.original, html`<span class="role">(first copy)</span>`)}</li>
        ${group.duplicates.map(
          (duplicate) => html`<li data-matched-by=${duplicate.matched_by}>
            ${this.#entry(duplicate, html`<span class="role">(copy of ${group.original.position + 1})</span>`)}
            <span class="why">Matched by ${duplicate.why}.</span>
          </li>`,
        )}
      </ul>
      ${everyCopy ? html`<p class="every-copy" role="status">Every copy of this song is ticked: none would stay.</p>` : nothing}
    </li>`;
  }

  #results(result: EntryDuplicates): TemplateResult {
    if (result.groups.length === 0) return html`<p data-testid="no-duplicate-songs" role="status">No song appears twice in “${result.name}” at these match levels.</p>`;
    const count = this._chosen.size;
    const suggestion = this._keep === 'choose' ? null : result.proposed_removals;
    return html`<div data-testid="duplicate-songs">
      <p role="status">
        ${result.groups.length} song${result.groups.length === 1 ? ' appears' : 's appear'} more than once in “${result.name}”. Nothing is ticked: tick the copies to remove${suggestion ? ', or tick the suggestion below' : ''}.
      </p>
      <ul class="groups">
        ${result.groups.map((group) => this.#group(group))}
      </ul>
      <p class="actions">
        ${suggestion
          ? html`<button type="button" @click=${() => (this._chosen = new Set(suggestion.map((entry) => entry.position)))}>
              Tick the suggestion: keep each song's ${result.keep} copy (${suggestion.length} to remove)
            </button>`
          : nothing}
        <button type="button" ?disabled=${count === 0} @click=${() => (this._chosen = new Set())}>Untick all</button>
        <button type="button" class="primary" ?disabled=${count === 0 || this.busy} @click=${() => this.#handOver()}>Check removal of ${count} song${count === 1 ? '' : 's'}</button>
      </p>
    </div>`;
  }

  override render(): TemplateResult {
    const removable = this.playlists.filter((playlist) => playlist.actions.remove_tracks.available);
    if (removable.length === 0) return html`<p class="hint">None of these playlists allows removing songs, so there is nothing to scan here.</p>`;
    return html`
      ${this._problem ? html`<opl-problem-notice .problem=${this._problem}></opl-problem-notice>` : nothing}
      <div class="field">
        <label for="duplicate-songs-playlist">Playlist</label>
        <select id="duplicate-songs-playlist" data-testid="duplicate-songs-playlist" @change=${(event: Event) => this.#choosePlaylist((event.target as HTMLSelectElement).value)}>
          <option value="">Choose a playlist</option>
          ${removable.map((playlist) => html`<option value=${playlist.id} ?selected=${playlist.id === this._playlistId}>${playlist.name}</option>`)}
        </select>
        <p class="hint">Only playlists you may remove songs from are listed.</p>
      </div>
      <fieldset>
        <legend>Count as the same song</legend>
        ${DUPLICATE_LEVELS.map(
          (level) => html`<label><input type="checkbox" data-level=${level} .checked=${this._levels.has(level)} @change=${(event: Event) => this.#toggleLevel(level, (event.target as HTMLInputElement).checked)} /> ${DUPLICATE_LEVEL_LABELS[level]}</label>`,
        )}
      </fieldset>
      <fieldset>
        <legend>Which copy stays</legend>
        ${(Object.keys(KEEP_LABELS) as KeepPolicy[]).map(
          (keep) => html`<label><input type="radio" name="keep" value=${keep} .checked=${this._keep === keep} @change=${() => (this._keep = keep)} /> ${KEEP_LABELS[keep]}</label>`,
        )}
      </fieldset>
      <p>
        <button type="button" ?disabled=${!this._playlistId || this._levels.size === 0 || this._scanning} @click=${() => void this.#scan()}>${this._scanning ? 'Looking for repeated songs…' : 'Find repeated songs'}</button>
      </p>
      ${this._result ? this.#results(this._result) : nothing}
    `;
  }
}
