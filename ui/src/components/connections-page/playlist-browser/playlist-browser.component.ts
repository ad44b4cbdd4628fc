import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { accountFullName, describeConnectionFailure, type AccountView, type ConnectionFailure } from '../../../api/connections.ts';
import { apiRequest } from '../../../api/http.ts';
import { formatDuration } from '../../../api/imports.ts';
import {
  notMigratableReason,
  openablePlaylistId,
  parsePlaylistDetail,
  parsePlaylistListing,
  playlistKindLabel,
  playlistPath,
  playlistRelation,
  playlistsPath,
  type PlaylistDetail,
  type PlaylistListing,
  type PlaylistSummary,
} from '../../../api/playlists.ts';
import { unexpectedAnswer } from '../../../api/problem.ts';
import { formatTimestamp } from '../../../api/timestamp.ts';
import { panelStyles } from '../../../theme/panel.styles.ts';
import { pageStyles } from '../../../theme/page.styles.ts';
import { sharedStyles } from '../../../theme/shared.styles.ts';
import { tableStyles } from '../../../theme/table.styles.ts';
import { loadingLineStyles, spinnerStyles } from '../../../theme/loading.styles.ts';
import { accessHint } from '../../problem-notice/access-hint.ts';
import '../../problem-notice/index.ts';
import { playlistBrowserStyles } from './playlist-browser.styles.ts';
import { announce, FocusTarget, nextStepsList, scrollingTable, TRACK_COLUMNS } from '../../kit/index.ts';

/** Playlist reads go through the provider and may page through a long list; give them time. */
const READ_TIMEOUT_MS = 60_000;

type ListLoad =
  | { readonly kind: 'loading' }
  | { readonly kind: 'loaded'; readonly listing: PlaylistListing }
  | { readonly kind: 'failed'; readonly failure: ConnectionFailure };

type TrackLoad =
  | { readonly kind: 'loading'; readonly playlist: PlaylistSummary }
  | { readonly kind: 'loaded'; readonly detail: PlaylistDetail }
  | { readonly kind: 'failed'; readonly playlist: PlaylistSummary; readonly failure: ConnectionFailure };

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString('en')} ${count === 1 ? one : many}`;
}

/**
 * A connected account's playlists (`GET /api/playlists`) with Refresh and the time they were read,
 * and the tracks of the playlist chosen (`GET /api/playlists/{id}`), entries that cannot be
 * migrated marked with the reason. Fires `opl-reconnect` when the account's sign-in expired,
 * `opl-browser-closed`, and `opl-announce` with text for the page's live region.
 */
export class OplPlaylistBrowser extends LitElement {
  static override styles = [sharedStyles, pageStyles, panelStyles, tableStyles, spinnerStyles, loadingLineStyles, playlistBrowserStyles];

  static override properties = {
    account: { attribute: false },
    _list: { state: true },
    _tracks: { state: true },
    _refreshing: { state: true },
  };

  declare account: AccountView | undefined;
  declare _list: ListLoad;
  declare _tracks: TrackLoad | undefined;
  declare _refreshing: boolean;
  /** Bumped per account, so answers about a previous account are dropped. */
  #generation = 0;
  readonly #focus = new FocusTarget();

  constructor() {
    super();
    this.account = undefined;
    this._list = { kind: 'loading' };
    this._tracks = undefined;
    this._refreshing = false;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('account') && this.account && changed.get('account')?.id !== this.account.id) {
      this._tracks = undefined;
      this.#focus.set('browser-heading');
      void this.#loadList(false);
    }
  }

  protected override updated(_changed: PropertyValues<this>): void {
    this.#focus.apply(this.renderRoot);
  }

  #announce(text: string): void {
    announce(this, text);
  }

  async #loadList(refresh: boolean): Promise<void> {
    const account = this.account;
    if (!account) return;
    const generation = ++this.#generation;
    if (refresh) this._refreshing = true;
    else this._list = { kind: 'loading' };
    const path = playlistsPath(account.id, refresh);
    const result = await apiRequest(path, { timeoutMs: READ_TIMEOUT_MS });
    if (generation !== this.#generation) return;
    this._refreshing = false;
    if (result.ok) {
      const listing = parsePlaylistListing(result.data);
      if (listing) {
        this._list = { kind: 'loaded', listing };
        if (refresh) this.#announce(`Playlists refreshed: ${plural(listing.playlists.length, 'playlist')}.`);
        return;
      }
      this._list = { kind: 'failed', failure: describeConnectionFailure(result.status, unexpectedAnswer(result.status, 'GET /api/playlists'), undefined) };
    } else {
      this._list = { kind: 'failed', failure: describeConnectionFailure(result.status, result.problem, result.body) };
    }
    this.#announce(`Playlists not read: ${this._list.failure.problem.title}.`);
  }

  async #openPlaylist(playlist: PlaylistSummary): Promise<void> {
    const account = this.account;
    const id = openablePlaylistId(playlist);
    if (!account || id === null) return;
    const generation = this.#generation;
    this._tracks = { kind: 'loading', playlist };
    const result = await apiRequest(playlistPath(id, account.id), { timeoutMs: READ_TIMEOUT_MS });
    if (generation !== this.#generation || this._tracks?.playlist !== playlist) return;
    if (result.ok) {
      const detail = parsePlaylistDetail(result.data);
      if (detail) {
        this._tracks = { kind: 'loaded', detail };
        this.#focus.set('tracks-heading');
        this.#announce(`${detail.playlist.name}: ${plural(detail.playlist.tracks.length, 'track')}.`);
        return;
      }
      this._tracks = { kind: 'failed', playlist, failure: describeConnectionFailure(result.status, unexpectedAnswer(result.status, 'GET /api/playlists/{id}'), undefined) };
    } else {
      this._tracks = { kind: 'failed', playlist, failure: describeConnectionFailure(result.status, result.problem, result.body) };
    }
    this.#announce(`Tracks not read: ${this._tracks.failure.problem.title}.`);
  }

  #reconnect(): void {
    if (!this.account) return;
    this.dispatchEvent(new CustomEvent('opl-reconnect', { detail: { accountId: this.account.id }, bubbles: true, composed: true }));
  }

  #failureNotice(failure: ConnectionFailure, retry: () => void, testId: string): TemplateResult {
    return html`<opl-problem-notice .problem=${failure.problem} data-testid=${testId}>
      <div class="failure-more">
        ${nextStepsList(failure.nextSteps)}
        ${accessHint(failure.problem)}
        <div class="row">
          ${failure.reconnect ? html`<button type="button" class="primary" @click=${() => this.#reconnect()}>Reconnect</button>` : nothing}
          ${failure.retry ? html`<button type="button" @click=${retry}>Try again</button>` : nothing}
        </div>
      </div>
    </opl-problem-notice>`;
  }

  #listTable(listing: PlaylistListing): TemplateResult {
    if (listing.playlists.length === 0) return html`<p class="empty" data-testid="playlists-empty">This account has no playlists.</p>`;
    const tracks = this._tracks;
    const selectedId = tracks ? openablePlaylistId(tracks.kind === 'loaded' ? tracks.detail.playlist : tracks.playlist) : null;
    return scrollingTable({
      headingId: 'browser-heading',
      testId: 'playlists-table',
      columns: [{ label: 'Name' }, { label: 'Kind' }, { label: 'Tracks', numeric: true }, { label: 'Owner' }],
      rows: listing.playlists.map((playlist) => {
        const id = openablePlaylistId(playlist);
        const selected = id !== null && id === selectedId;
        return html`<tr data-playlist-id=${id ?? ''} data-kind=${playlist.kind} aria-current=${selected ? 'true' : nothing}>
          <th scope="row">
            ${id === null
              ? playlist.name || 'Untitled playlist'
              : html`<button type="button" class="link" aria-pressed=${selected ? 'true' : 'false'} @click=${() => void this.#openPlaylist(playlist)}>
                  ${playlist.name || 'Untitled playlist'}
                </button>`}
            ${playlist.description ? html`<span class="secondary">${playlist.description}</span>` : nothing}
          </th>
          <td>${playlistKindLabel(playlist.kind)}</td>
          <td class="number">${playlist.trackCount === null ? html`<span aria-hidden="true">—</span><span class="visually-hidden">Unknown</span>` : playlist.trackCount.toLocaleString('en')}</td>
          <td>${playlistRelation(playlist)}</td>
        </tr>`;
      }),
    });
  }

  #tracksSection(): TemplateResult | typeof nothing {
    const tracks = this._tracks;
    if (!tracks) return nothing;
    if (tracks.kind === 'loading') {
      return html`<p class="loading" role="status"><span class="spinner" aria-hidden="true"></span>Reading “${tracks.playlist.name}”…</p>`;
    }
    if (tracks.kind === 'failed') {
      return this.#failureNotice(tracks.failure, () => void this.#openPlaylist(tracks.playlist), 'tracks-problem');
    }
    const { detail } = tracks;
    const playlist = detail.playlist;
    const notMigratable = playlist.tracks.filter((track) => !track.isMigratable).length;
    return html`<div class="tracks" data-testid="playlist-tracks" data-playlist-id=${openablePlaylistId(playlist) ?? ''}>
      <h3 id="tracks-heading" tabindex="-1">${playlist.name || 'Untitled playlist'} <span class="count">(${plural(playlist.tracks.length, 'track')})</span></h3>
      <p class="hint">
        Read <time datetime=${detail.fetchedAt}>${formatTimestamp(detail.fetchedAt)}</time>${detail.cached ? ' (from the engine’s cache)' : ''}.
        ${notMigratable > 0 ? html`<strong data-testid="not-migratable-count">${plural(notMigratable, 'entry', 'entries')} cannot be migrated.</strong>` : nothing}
      </p>
      ${playlist.tracks.length === 0
        ? html`<p class="empty">This playlist has no tracks.</p>`
        : scrollingTable({
            headingId: 'tracks-heading',
            testId: 'tracks-table',
            columns: [...TRACK_COLUMNS, { label: 'ISRC' }],
            rows: playlist.tracks.map((track, index) => {
              const reason = notMigratableReason(track);
              const duration = formatDuration(track.durationS);
              return html`<tr class=${reason ? 'not-migratable' : ''} data-migratable=${reason ? 'false' : 'true'}>
                <td class="number">${(track.position ?? index) + 1}</td>
                <th scope="row">
                  ${track.title || html`<span class="empty">No title</span>`}
                  ${track.explicit === true ? html`<span class="badge" aria-hidden="true" title="Explicit">E</span><span class="visually-hidden">(explicit)</span>` : nothing}
                  ${reason ? html`<span class="not-migratable-reason" data-testid="not-migratable-reason">Not migratable: ${reason}</span>` : nothing}
                </th>
                <td>${track.artist}</td>
                <td>${track.album ?? ''}</td>
                <td class="number">${duration || html`<span aria-hidden="true">—</span><span class="visually-hidden">Unknown</span>`}</td>
                <td>${track.isrc ? html`<code>${track.isrc}</code>` : ''}</td>
              </tr>`;
            }),
          })}
    </div>`;
  }

  #body(): TemplateResult {
    const list = this._list;
    if (list.kind === 'loading') return html`<p class="loading" role="status"><span class="spinner" aria-hidden="true"></span>Reading playlists…</p>`;
    if (list.kind === 'failed') return this.#failureNotice(list.failure, () => void this.#loadList(false), 'playlists-problem');
    const { listing } = list;
    return html`
      <div class="as-of">
        <p class="hint" data-testid="fetched-at">
          ${plural(listing.playlists.length, 'playlist')}, as of <time datetime=${listing.fetchedAt}>${formatTimestamp(listing.fetchedAt)}</time>${listing.cached
            ? ' (from the engine’s cache)'
            : ''}.
        </p>
        <button type="button" aria-disabled=${this._refreshing ? 'true' : 'false'} @click=${() => (this._refreshing ? undefined : void this.#loadList(true))}>
          ${this._refreshing ? 'Refreshing…' : 'Refresh'}<span class="visually-hidden"> playlists</span>
        </button>
      </div>
      ${this.#listTable(listing)} ${this.#tracksSection()}
    `;
  }

  override render(): TemplateResult | typeof nothing {
    const account = this.account;
    if (!account) return nothing;
    return html`<section aria-labelledby="browser-heading" data-testid="playlist-browser" data-account-id=${account.id}>
      <div class="heading-row">
        <h2 id="browser-heading" tabindex="-1">Playlists of ${accountFullName(account)}</h2>
        <button type="button" @click=${() => this.dispatchEvent(new CustomEvent('opl-browser-closed', { bubbles: true, composed: true }))}>
          Close<span class="visually-hidden"> playlists</span>
        </button>
      </div>
      ${this.#body()}
    </section>`;
  }
}
