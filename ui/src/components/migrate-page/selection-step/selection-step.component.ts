import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { apiRequest } from '../../../api/http.ts';
import { importPath } from '../../../api/imports.ts';
import { EMPTY_SELECTION, parseImportCollections, type MigrationSource, type SelectionDraft } from '../../../api/migrations.ts';
import { mediaTypeLabel, openablePlaylistId, parsePlaylistDetail, parsePlaylistListing, playlistKindLabel, playlistPath, playlistsPath, type PlaylistTrack } from '../../../api/playlists.ts';
import type { Problem } from '../../../api/problem.ts';
import { formStyles } from '../../../theme/form.styles.ts';
import { panelStyles } from '../../../theme/panel.styles.ts';
import { sharedStyles } from '../../../theme/shared.styles.ts';
import { tableStyles } from '../../../theme/table.styles.ts';
import { framedFieldsetStyles, linkButtonStyles } from '../../../theme/choice-group.styles.ts';
import '../../problem-notice/index.ts';
import '../library-picker/index.ts';
import { selectionStepStyles } from './selection-step.styles.ts';
import { chooseCollectionTracks, chosenTracks, collectionTick, tickCollection, type CollectionChoice } from './collection-tick.ts';
import { chooseTracks, matchingTracks } from './track-filter.ts';

/** Playlist reads may page through the provider; give them time. */
const READ_TIMEOUT_MS = 60_000;
/**
 * Tracks listed at a time when a playlist's tracks are opened: a checkbox each, and 10,000 of them
 * built at once held the page for about two seconds. More come on request.
 */
export const TRACK_PAGE = 200;

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString('en')} ${count === 1 ? one : many}`;
}

interface Collection {
  readonly id: string;
  readonly name: string;
  readonly kind: string;
  readonly trackCount: number | null;
  /** An import's playlists come with every track (the record holds them); an account's are read when opened. */
  readonly tracks?: readonly PlaylistTrack[];
}

type Load = { readonly kind: 'loading' } | { readonly kind: 'loaded'; readonly collections: readonly Collection[] } | { readonly kind: 'failed'; readonly problem: Problem };

type TrackLoad = { readonly kind: 'loading' } | { readonly kind: 'loaded'; readonly tracks: readonly PlaylistTrack[] } | { readonly kind: 'failed'; readonly problem: Problem };

/**
 * The keys a track selection names tracks by. An import's tracks are selected by their index in
 * the playlist (`pos:<n>`, what the engine counts for imports whatever the file's own positions
 * say); an account's by the position the service reported, else the index.
 */
function trackKeys(source: MigrationSource, tracks: readonly PlaylistTrack[]): string[] {
  return tracks.map((track, index) => `pos:${source.kind === 'import' ? index : (track.position ?? index)}`);
}

function unexpected(status: number): Problem {
  return { title: 'Unexpected answer from the engine', status, detail: 'The answer did not have the documented fields.' };
}

/**
 * Step 2 of the wizard: what to migrate. Lists the source's collections (a connected account's
 * playlists and liked songs, or an import's playlists) with their track counts; each can go whole
 * or with only some of its tracks. Saved albums and followed artists are listed to choose from,
 * each only when the source service lets the engine read them. Fires `opl-selection-change` with
 * the SelectionDraft.
 */
export class OplSelectionStep extends LitElement {
  static override styles = [sharedStyles, panelStyles, formStyles, tableStyles, framedFieldsetStyles, linkButtonStyles, selectionStepStyles];

  static override properties = {
    source: { attribute: false },
    libraryKinds: { attribute: false },
    purpose: { type: String },
    _load: { state: true },
    _selected: { state: true },
    _tracks: { state: true },
    _open: { state: true },
    _openTracks: { state: true },
    _shownTracks: { state: true },
    _trackFilter: { state: true },
  };

  declare source: MigrationSource | undefined;
  /** Which of `albums` / `artists` the source service can list (from its capabilities). */
  declare libraryKinds: readonly string[];
  /** `export`: every entry can be chosen (episodes and local files are exported as they are); `migrate`: only what can be migrated. */
  declare purpose: 'migrate' | 'export';
  declare _load: Load;
  declare _selected: ReadonlySet<string>;
  /** Per collection: the `pos:<n>` keys chosen, when only some tracks go. */
  declare _tracks: Readonly<Record<string, readonly string[]>>;
  declare _open: string | undefined;
  declare _openTracks: TrackLoad | undefined;
  /** How many of the open playlist's tracks are listed (`TRACK_PAGE` more on each request). */
  declare _shownTracks: number;
  /** What the open playlist's tracks are narrowed to (words of title, artist or album). */
  declare _trackFilter: string;
  #albums: readonly string[] = [];
  #artists: readonly string[] = [];
  #generation = 0;

  constructor() {
    super();
    this.source = undefined;
    this.libraryKinds = [];
    this.purpose = 'migrate';
    this._load = { kind: 'loading' };
    this._selected = new Set();
    this._tracks = {};
    this._open = undefined;
    this._openTracks = undefined;
    this._shownTracks = TRACK_PAGE;
    this._trackFilter = '';
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('source')) {
      this._selected = new Set();
      this._tracks = {};
      this._open = undefined;
      this._openTracks = undefined;
      this.#albums = [];
      this.#artists = [];
      void this.#loadCollections();
    }
  }

  async #loadCollections(): Promise<void> {
    const generation = ++this.#generation;
    const source = this.source;
    if (!source) return;
    this._load = { kind: 'loading' };
    const path = source.kind === 'import' ? importPath(source.importId) : playlistsPath(source.accountId);
    const result = await apiRequest(path, { timeoutMs: READ_TIMEOUT_MS });
    if (generation !== this.#generation) return;
    if (!result.ok) {
      this._load = { kind: 'failed', problem: result.problem };
      return;
    }
    if (source.kind === 'import') {
      const collections = parseImportCollections(result.data);
      this._load = collections ? { kind: 'loaded', collections: collections.map((c) => ({ ...c, kind: 'PLAYLIST' })) } : { kind: 'failed', problem: unexpected(result.status) };
      return;
    }
    const listing = parsePlaylistListing(result.data);
    if (!listing) {
      this._load = { kind: 'failed', problem: unexpected(result.status) };
      return;
    }
    const collections = listing.playlists.flatMap((playlist) => {
      const id = openablePlaylistId(playlist);
      return id === null ? [] : [{ id, name: playlist.name, kind: playlist.kind, trackCount: playlist.trackCount }];
    });
    this._load = { kind: 'loaded', collections };
  }

  #emit(): void {
    const selection: SelectionDraft = {
      ...EMPTY_SELECTION,
      collectionIds: [...this._selected],
      tracks: Object.fromEntries(Object.entries(this._tracks).filter(([id]) => this._selected.has(id))),
      savedAlbumIds: [...this.#albums],
      followedArtistIds: [...this.#artists],
    };
    this.dispatchEvent(new CustomEvent<SelectionDraft>('opl-selection-change', { detail: selection, bubbles: true, composed: true }));
  }

  get #choice(): CollectionChoice {
    return { selected: this._selected, tracks: this._tracks };
  }

  #apply(choice: CollectionChoice): void {
    this._selected = choice.selected;
    this._tracks = choice.tracks;
    this.#emit();
  }

  #toggle(id: string, checked: boolean): void {
    this.#apply(tickCollection(this.#choice, id, checked));
  }

  async #openTracks(collection: Collection): Promise<void> {
    const source = this.source;
    if (!source) return;
    if (this._open === collection.id) {
      this._open = undefined;
      return;
    }
    this._open = collection.id;
    this._shownTracks = TRACK_PAGE;
    this._trackFilter = '';
    if (collection.tracks) {
      this._openTracks = { kind: 'loaded', tracks: collection.tracks };
      return;
    }
    if (source.kind !== 'account') return;
    this._openTracks = { kind: 'loading' };
    const result = await apiRequest(playlistPath(collection.id, source.accountId), { timeoutMs: READ_TIMEOUT_MS });
    if (this._open !== collection.id) return;
    if (!result.ok) {
      this._openTracks = { kind: 'failed', problem: result.problem };
      return;
    }
    const detail = parsePlaylistDetail(result.data);
    this._openTracks = detail ? { kind: 'loaded', tracks: detail.playlist.tracks } : { kind: 'failed', problem: unexpected(result.status) };
  }

  /** Ticks or unticks `changed` (one track, or every one the filter matches) of a collection. */
  #chooseTracks(collectionId: string, changed: readonly string[], checked: boolean, all: readonly string[]): void {
    // A playlist not chosen yet starts from no tracks, as its unticked boxes show.
    const current = new Set(chosenTracks(this._tracks, collectionId) ?? (this._selected.has(collectionId) ? all : []));
    this.#apply(chooseCollectionTracks(this.#choice, collectionId, chooseTracks(all, current, changed, checked), all));
  }

  #trackList(collection: Collection): TemplateResult | typeof nothing {
    if (this._open !== collection.id || !this._openTracks) return nothing;
    const load = this._openTracks;
    if (load.kind === 'loading') return html`<p role="status">Reading the tracks…</p>`;
    if (load.kind === 'failed') return html`<opl-problem-notice .problem=${load.problem}></opl-problem-notice>`;
    if (!this.source) return nothing;
    const keys = trackKeys(this.source, load.tracks);
    const chosen = new Set(chosenTracks(this._tracks, collection.id) ?? (this._selected.has(collection.id) ? keys : []));
    const choosable = (track: PlaylistTrack) => track.isMigratable || this.purpose === 'export';
    // Thousands of tracks are found by words rather than paged through; ticking all applies to what the filter matches.
    const filtered = this._trackFilter.trim() !== '';
    const matches = matchingTracks(load.tracks, this._trackFilter);
    const matchingKeys = matches.filter((index) => choosable(load.tracks[index]!)).map((index) => keys[index]!);
    const shown = matches.slice(0, this._shownTracks);
    const left = matches.length - shown.length;
    const all = filtered ? `all ${plural(matchingKeys.length, 'match', 'matches')}` : 'all';
    return html`<fieldset class="tracks" data-testid="track-picker">
      <legend>Tracks of <bdi>${collection.name}</bdi></legend>
      <div class="track-tools">
        <label
          >Find tracks <input type="search" data-testid="track-filter" .value=${this._trackFilter} aria-describedby="track-matches"
            @input=${(event: Event) => {
              this._trackFilter = (event.currentTarget as HTMLInputElement).value;
              this._shownTracks = TRACK_PAGE;
            }}
        /></label>
        <button type="button" data-action="tick-all" ?disabled=${matchingKeys.length === 0} @click=${() => this.#chooseTracks(collection.id, matchingKeys, true, keys)}>Tick ${all}</button>
        <button type="button" data-action="untick-all" ?disabled=${matchingKeys.length === 0} @click=${() => this.#chooseTracks(collection.id, matchingKeys, false, keys)}>Untick ${all}</button>
        <span class="muted" id="track-matches" role="status" data-testid="track-matches"
          >${filtered ? `${plural(matches.length, 'track')} of ${load.tracks.length.toLocaleString('en')} match.` : ''} ${plural(chosen.size, 'track')} chosen.</span
        >
      </div>
      <ul>
        ${shown.map((index) => {
          const track = load.tracks[index]!;
          const key = keys[index]!;
          return html`<li>
            <label
              ><input type="checkbox" .checked=${chosen.has(key)} ?disabled=${!choosable(track)}
                @change=${(event: Event) => this.#chooseTracks(collection.id, [key], (event.currentTarget as HTMLInputElement).checked, keys)} />
              <bdi>${track.title}</bdi> — <bdi>${track.artist}</bdi>${track.isMigratable ? nothing : html` <span class="muted">(${this.purpose === 'export' ? mediaTypeLabel(track.mediaType) : 'cannot be migrated'})</span>`}</label
            >
          </li>`;
        })}
      </ul>
      ${left > 0
        ? html`<p class="more">
            <span class="muted" data-testid="tracks-shown">Showing ${plural(shown.length, 'track')} of ${matches.length.toLocaleString('en')}.</span>
            <button type="button" class="link" @click=${() => void this.#showMoreTracks(shown.length)}>Show ${plural(Math.min(TRACK_PAGE, left), 'more track', 'more tracks')}</button>
          </p>`
        : nothing}
    </fieldset>`;
  }

  /** Lists the next page of tracks and moves focus to the first of them, where reading goes on. */
  async #showMoreTracks(firstNew: number): Promise<void> {
    this._shownTracks += TRACK_PAGE;
    await this.updateComplete;
    this.renderRoot.querySelectorAll<HTMLInputElement>('[data-testid="track-picker"] input[type="checkbox"]')[firstNew]?.focus();
  }

  #collectionRow(collection: Collection): TemplateResult {
    const tick = collectionTick(this.#choice, collection.id);
    const partial = tick === 'mixed' ? chosenTracks(this._tracks, collection.id) : undefined;
    const count = collection.trackCount === null ? 'unknown' : collection.trackCount.toLocaleString('en');
    return html`<li class="collection" data-testid="collection" data-collection-id=${collection.id}>
      <label>
        <input type="checkbox" .checked=${tick === 'checked'} .indeterminate=${tick === 'mixed'} @change=${(event: Event) => this.#toggle(collection.id, (event.currentTarget as HTMLInputElement).checked)} />
        <bdi>${collection.name}</bdi>
      </label>
      <span class="muted">${playlistKindLabel(collection.kind)} · ${collection.trackCount === 1 ? '1 track' : `${count} tracks`}${partial ? html` · ${partial.length.toLocaleString('en')} chosen` : nothing}</span>
      ${this.source?.kind === 'account' || (collection.tracks?.length ?? 0) > 0
        ? html`<button type="button" class="link" aria-expanded=${this._open === collection.id ? 'true' : 'false'} @click=${() => void this.#openTracks(collection)}>
            Choose tracks<span class="visually-hidden"> of <bdi>${collection.name}</bdi></span>
          </button>`
        : nothing}
      ${this.#trackList(collection)}
    </li>`;
  }

  #libraryPickers(): TemplateResult | typeof nothing {
    const source = this.source;
    if (source?.kind !== 'account' || this.libraryKinds.length === 0) return nothing;
    return html`<div class="library">
      ${this.libraryKinds.includes('albums')
        ? html`<opl-library-picker
            kind="albums"
            account-id=${source.accountId}
            @opl-library-change=${(event: CustomEvent<string[]>) => ((this.#albums = event.detail), this.#emit())}
          ></opl-library-picker>`
        : nothing}
      ${this.libraryKinds.includes('artists')
        ? html`<opl-library-picker
            kind="artists"
            account-id=${source.accountId}
            @opl-library-change=${(event: CustomEvent<string[]>) => ((this.#artists = event.detail), this.#emit())}
          ></opl-library-picker>`
        : nothing}
    </div>`;
  }

  override render(): TemplateResult {
    const load = this._load;
    if (load.kind === 'loading') return html`<p role="status">Reading what the source holds…</p>`;
    if (load.kind === 'failed') return html`<opl-problem-notice .problem=${load.problem}></opl-problem-notice>${this.#libraryPickers()}`;
    return html`<fieldset>
        <legend>Playlists and liked songs</legend>
        ${load.collections.length === 0
          ? html`<p class="empty">This source has no playlists.</p>`
          : html`<ul class="collections">
              ${load.collections.map((collection) => this.#collectionRow(collection))}
            </ul>`}
      </fieldset>
      ${this.#libraryPickers()}`;
  }
}
