import { html, nothing, type TemplateResult } from 'lit';
import { accountFullName, type AccountView } from '../../api/connections.ts';
import { apiRequest } from '../../api/http.ts';
import { parsePlaylistListing, playlistsPath, type PlaylistSummary } from '../../api/playlists.ts';
import type { Problem } from '../../api/problem.ts';
import { diffPath, parseDiff, parseRewindPreview, REWIND_PATH, rewindOutcome, rewindPreviewPath, rewindRequest, type DiffSong, type RewindPreview, type RewindTargetInput, type SnapshotDiff } from '../../api/snapshot-history.ts';
import type { Snapshot } from '../../api/snapshots.ts';
import { formatTimestamp } from '../../api/timestamp.ts';
import { announce, OplLightElement } from '../kit/index.ts';
import '../problem-notice/index.ts';

const LIVE = 'live';
const song = (track: DiffSong) => `${track.title} — ${track.artist}`;
const field = (data: FormData, name: string): string => {
  const value = data.get(name);
  return typeof value === 'string' ? value : '';
};

/**
 * The history half of the Snapshots page: what changed, song by song (two snapshots, or a
 * snapshot's playlist against the live one: added, removed, moved), and "put a playlist back as it
 * was at a time" — pick the playlist and the time, read the preview (what is removed, moved and
 * added), confirm the removals, and the engine rewinds the same playlist in place.
 */
export class OplSnapshotHistory extends OplLightElement {
  static override properties = {
    snapshots: { attribute: false },
    accounts: { attribute: false },
    _diff: { state: true },
    _against: { state: true },
    _older: { state: true },
    _problem: { state: true },
    _busy: { state: true },
    _rewindAccount: { state: true },
    _playlists: { state: true },
    _preview: { state: true },
    _previewTarget: { state: true },
    _outcome: { state: true },
  };

  declare snapshots: readonly Snapshot[];
  declare accounts: readonly AccountView[];
  declare _diff: SnapshotDiff | undefined;
  declare _against: string;
  declare _older: string;
  declare _problem: Problem | undefined;
  declare _busy: 'diff' | 'preview' | 'rewind' | undefined;
  declare _rewindAccount: string;
  declare _playlists: readonly PlaylistSummary[] | 'loading' | 'failed' | undefined;
  declare _preview: RewindPreview | undefined;
  declare _previewTarget: RewindTargetInput | undefined;
  declare _outcome: string;

  constructor() {
    super();
    this.snapshots = [];
    this.accounts = [];
    this._diff = undefined;
    this._against = LIVE;
    this._older = '';
    this._problem = undefined;
    this._busy = undefined;
    this._rewindAccount = '';
    this._playlists = undefined;
    this._preview = undefined;
    this._previewTarget = undefined;
    this._outcome = '';
  }

  #finished(): readonly Snapshot[] {
    return this.snapshots.filter((snapshot) => snapshot.archiveBytes !== null && (snapshot.status === 'completed' || snapshot.status === 'partial'));
  }

  async #compare(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    if (this._busy) return;
    const data = new FormData(event.target as HTMLFormElement);
    const older = field(data, 'older');
    const against = field(data, 'against');
    const collection = field(data, 'collection');
    if (!older || !against || (against === LIVE && !collection)) {
      this._problem = { title: 'Choose what to compare', status: 0, detail: 'Choose a snapshot, and what to compare it with (for the live playlist, one of its playlists).' };
      return;
    }
    this._busy = 'diff';
    this._problem = undefined;
    const result = await apiRequest(diffPath(older, against, collection || null), { timeoutMs: 120_000 });
    this._busy = undefined;
    if (!result.ok) {
      this._problem = result.problem;
      return;
    }
    this._diff = parseDiff(result.data);
    const changed = this._diff?.collections.filter((entry) => entry.status === 'changed').length ?? 0;
    announce(this, `Compared: ${changed} ${changed === 1 ? 'collection' : 'collections'} changed.`);
  }

  #chooseAccount(accountId: string): void {
    this._rewindAccount = accountId;
    this._preview = undefined;
    this._outcome = '';
    if (!accountId) return void (this._playlists = undefined);
    this._playlists = 'loading';
    void apiRequest(playlistsPath(accountId)).then((result) => {
      const listing = result.ok ? parsePlaylistListing(result.data) : undefined;
      this._playlists = listing ? listing.playlists.filter((playlist) => playlist.id !== null && playlist.id !== 'liked') : 'failed';
    });
  }

  async #previewRewind(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    if (this._busy) return;
    const data = new FormData(event.target as HTMLFormElement);
    const playlistId = field(data, 'playlist');
    const when = field(data, 'at');
    const at = when ? new Date(when) : null;
    if (!this._rewindAccount || !playlistId || !at || Number.isNaN(at.getTime())) {
      this._problem = { title: 'Choose the playlist and the time', status: 0, detail: 'Choose an account, one of its playlists, and the date and time to put it back to.' };
      return;
    }
    const target = { accountId: this._rewindAccount, playlistId, at: at.toISOString() };
    this._busy = 'preview';
    this._problem = undefined;
    this._outcome = '';
    const result = await apiRequest(rewindPreviewPath(target), { timeoutMs: 120_000 });
    this._busy = undefined;
    if (!result.ok) {
      this._preview = undefined;
      this._problem = result.problem;
      return;
    }
    this._preview = parseRewindPreview(result.data);
    this._previewTarget = target;
    announce(this, this._preview?.method === 'none' ? 'The playlist already is as it was then.' : `Preview: ${this._preview?.counts.remove ?? 0} removed, ${this._preview?.counts.move ?? 0} moved, ${this._preview?.counts.add ?? 0} added.`);
  }

  async #rewind(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const preview = this._preview;
    const target = this._previewTarget;
    if (!preview || !target || this._busy) return;
    const confirmed = new FormData(event.target as HTMLFormElement).get('confirm') === 'yes';
    if (preview.counts.remove > 0 && !confirmed) {
      this._problem = { title: 'Confirm the removals', status: 0, detail: `This removes ${preview.counts.remove} songs from the playlist: tick the confirmation first.` };
      return;
    }
    this._busy = 'rewind';
    this._problem = undefined;
    const result = await apiRequest(REWIND_PATH, { method: 'POST', json: rewindRequest(target, preview.counts.remove), timeoutMs: 600_000 });
    this._busy = undefined;
    if (!result.ok) {
      this._problem = result.problem;
      return;
    }
    this._outcome = rewindOutcome(result.data);
    this._preview = undefined;
    announce(this, this._outcome);
    this.dispatchEvent(new CustomEvent('opl-snapshots-changed', { bubbles: true }));
  }

  #diffView(diff: SnapshotDiff): TemplateResult {
    return html`<div data-testid="diff-result">
      <h4 id="diff-result-heading">${diff.toLive ? 'Against the live playlist' : 'Between the two snapshots'}</h4>
      ${diff.collections.map(
        (entry) => html`<section class="diff-collection" data-testid="diff-collection" data-key=${entry.key} data-status=${entry.status} aria-label=${entry.name}>
          <p><strong>${entry.name}</strong>:
            <span data-testid="diff-counts">${entry.status === 'changed' || entry.status === 'unchanged' ? `${entry.counts.added} added, ${entry.counts.removed} removed, ${entry.counts.moved} moved, ${entry.counts.unchanged} in place` : entry.status}</span></p>
          <ul class="diff-changes">
            ${entry.added.map((item) => html`<li data-change="added">Added at ${item.position + 1}: ${song(item.track)}</li>`)}
            ${entry.removed.map((item) => html`<li data-change="removed">Removed from ${item.position + 1}: ${song(item.track)}</li>`)}
            ${entry.moved.map((item) => html`<li data-change="moved">Moved ${item.from + 1} → ${item.to + 1}: ${song(item.track)}</li>`)}
          </ul>
          ${entry.truncated ? html`<p class="hint">More changes than shown.</p>` : nothing}
        </section>`,
      )}
    </div>`;
  }

  #compareForm(finished: readonly Snapshot[]): TemplateResult {
    const older = finished.find((snapshot) => snapshot.id === this._older) ?? finished[finished.length - 1];
    const label = (snapshot: Snapshot) => `${formatTimestamp(snapshot.createdAt)} (${snapshot.collectionCount ?? 0} collections)`;
    const playlists = older?.collections.filter((collection) => collection.status !== 'failed' && collection.kind === 'playlist') ?? [];
    return html`<form class="history" data-testid="compare-form" @submit=${(event: SubmitEvent) => void this.#compare(event)}>
      <label for="compare-older">Snapshot</label>
      <select id="compare-older" name="older" @change=${(event: Event) => (this._older = (event.target as HTMLSelectElement).value)}>
        ${finished.map((snapshot) => html`<option value=${snapshot.id} ?selected=${snapshot.id === older?.id}>${label(snapshot)}</option>`)}
      </select>
      <label for="compare-against">Compare with</label>
      <select id="compare-against" name="against" @change=${(event: Event) => (this._against = (event.target as HTMLSelectElement).value)}>
        <option value=${LIVE} ?selected=${this._against === LIVE}>The live playlist (read from the service now)</option>
        ${finished.filter((snapshot) => snapshot.id !== older?.id).map((snapshot) => html`<option value=${snapshot.id} ?selected=${this._against === snapshot.id}>The snapshot of ${label(snapshot)}</option>`)}
      </select>
      <label for="compare-collection">Playlist${this._against === LIVE ? '' : ' (optional)'}</label>
      <select id="compare-collection" name="collection">
        ${this._against === LIVE ? nothing : html`<option value="">Every collection</option>`}
        ${playlists.map((collection) => html`<option value=${collection.restoreId}>${collection.name}</option>`)}
      </select>
      <p><button type="submit" aria-disabled=${this._busy === 'diff' ? 'true' : 'false'}>${this._busy === 'diff' ? 'Comparing…' : 'Compare'}</button></p>
    </form>`;
  }

  #previewView(preview: RewindPreview): TemplateResult {
    const { counts } = preview;
    return html`<div data-testid="rewind-preview" data-method=${preview.method}>
      <p role="status">
        “${preview.playlistName}” as in the snapshot of <time datetime=${preview.snapshotCreatedAt}>${formatTimestamp(preview.snapshotCreatedAt)}</time>:
        <span data-testid="rewind-counts">${preview.method === 'none' ? 'already as it was; nothing to do' : `${counts.remove} removed, ${counts.move} moved, ${counts.add} added → ${counts.result} songs`}</span>
      </p>
      <ul class="diff-changes">
        ${preview.remove.map((item) => html`<li data-change="removed">Removed: ${song(item)}</li>`)}
        ${preview.move.map((item) => html`<li data-change="moved">Moved ${item.from + 1} → ${item.to + 1}: ${song(item)}</li>`)}
        ${preview.add.map((item) => html`<li data-change="added">Added at ${item.position + 1}: ${song(item)}</li>`)}
        ${preview.unrestorable.map((item) => html`<li data-change="unrestorable">Cannot be put back (no link on this service): ${song(item)}</li>`)}
      </ul>
      ${preview.method === 'none'
        ? nothing
        : html`<form data-testid="rewind-form" @submit=${(event: SubmitEvent) => void this.#rewind(event)}>
            ${counts.remove > 0 ? html`<label><input type="checkbox" name="confirm" value="yes" /> Remove ${counts.remove} ${counts.remove === 1 ? 'song' : 'songs'} added since then</label>` : nothing}
            <p class="hint">A snapshot of the playlist as it is now is taken first, so this can be undone.</p>
            <p><button type="submit" class="primary" aria-disabled=${this._busy === 'rewind' ? 'true' : 'false'}>${this._busy === 'rewind' ? 'Putting it back…' : 'Put it back'}</button></p>
          </form>`}
    </div>`;
  }

  #rewindForm(): TemplateResult {
    const playlists = this._playlists;
    const loaded = typeof playlists === 'object' ? playlists : null;
    return html`<form class="history" data-testid="rewind-target-form" @submit=${(event: SubmitEvent) => void this.#previewRewind(event)}>
      <label for="rewind-account">Account</label>
      <select id="rewind-account" name="account" @change=${(event: Event) => this.#chooseAccount((event.target as HTMLSelectElement).value)}>
        <option value="">Choose an account</option>
        ${this.accounts.map((account) => html`<option value=${account.id} ?selected=${account.id === this._rewindAccount}>${accountFullName(account)}</option>`)}
      </select>
      <label for="rewind-playlist">Playlist</label>
      <select id="rewind-playlist" name="playlist" ?disabled=${loaded === null}>
        ${loaded ? loaded.map((playlist) => html`<option value=${playlist.id ?? ''}>${playlist.name}</option>`) : html`<option value="">${playlists === 'loading' ? 'Loading…' : playlists === 'failed' ? 'The playlists could not be read' : 'Choose an account first'}</option>`}
      </select>
      <label for="rewind-at">As it was at</label>
      <input id="rewind-at" name="at" type="datetime-local" step="1" />
      <p><button type="submit" aria-disabled=${this._busy === 'preview' ? 'true' : 'false'}>${this._busy === 'preview' ? 'Reading…' : 'Preview'}</button></p>
    </form>`;
  }

  override render(): TemplateResult {
    const finished = this.#finished();
    return html`<section aria-labelledby="history-heading" data-testid="snapshot-history">
      <h2 id="history-heading">Compare and put back</h2>
      ${this._problem ? html`<opl-problem-notice .problem=${this._problem} data-testid="history-problem"></opl-problem-notice>` : nothing}
      <h3 id="compare-heading">What changed</h3>
      ${finished.length === 0 ? html`<p class="empty">No finished snapshot to compare yet.</p>` : this.#compareForm(finished)}
      ${this._diff ? this.#diffView(this._diff) : nothing}
      <h3 id="rewind-heading">A playlist as it was</h3>
      <p class="hint">The same playlist on the same service is put back exactly as the newest snapshot taken at or before that time holds it: songs added since are removed, removed ones added back, the order restored.</p>
      ${this.#rewindForm()}
      ${this._preview ? this.#previewView(this._preview) : nothing}
      ${this._outcome ? html`<p class="ok" role="status" data-testid="rewind-outcome">${this._outcome}</p>` : nothing}
    </section>`;
  }
}
