import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { styleMap } from 'lit/directives/style-map.js';
import { apiRequest } from '../../api/http.ts';
import {
  diffPath,
  JOIN_PATH,
  LIBRARY_HANDOVER_KEY,
  parseDiff,
  parseWorkspace,
  reasonLabel,
  refreshPath,
  RESOLVE_PATH,
  resolveSummary,
  SPLIT_PATH,
  stateLabel,
  workspacePath,
  type LibraryHandover,
  type MemberDiff,
  type Workspace,
  type WorkspaceAccount,
  type WorkspaceGroup,
  type WorkspaceMember,
} from '../../api/library-workspace.ts';
import type { Problem } from '../../api/problem.ts';
import { formatTimestamp } from '../../api/timestamp.ts';
import { hrefFor } from '../../router/route.ts';
import { formStyles } from '../../theme/form.styles.ts';
import { pageStyles } from '../../theme/page.styles.ts';
import { sharedStyles } from '../../theme/shared.styles.ts';
import { tableStyles } from '../../theme/table.styles.ts';
import { tagStyles } from '../../theme/tag.styles.ts';
import { accessHint } from '../problem-notice/access-hint.ts';
import '../problem-notice/index.ts';
import { OplLibraryDiff } from './library-diff.component.ts';
import { groupActions } from './library-group-actions.template.ts';
import { groupHeights, groupWindow, VIRTUALIZE_FROM } from './group-window.ts';
import { libraryPageStyles } from './library-page.styles.ts';
import { OplPage } from '../kit/index.ts';

if (!customElements.get('opl-library-diff')) customElements.define('opl-library-diff', OplLibraryDiff);

type Load = { readonly state: 'loading' } | { readonly state: 'loaded'; readonly workspace: Workspace } | { readonly state: 'failed'; readonly problem: Problem };

/** Refreshes read providers: a large account takes a while. */
const REFRESH_TIMEOUT_MS = 300_000;

/**
 * Library: every connected account's playlists and liked songs, the same playlist grouped across
 * services with the reasons why, how much of the group's songs each one holds, and — against a
 * chosen target account — whether each was migrated there. Members can be compared (the diff),
 * split out of a group or joined into one, and the songs one lacks handed to the Migrate page.
 * Everything shown comes from the engine's caches; "Refresh" reads the services again.
 */
export class OplLibraryPage extends OplPage {
  static override styles = [sharedStyles, pageStyles, tableStyles, formStyles, tagStyles, libraryPageStyles];

  static override properties = {
    _load: { state: true },
    _target: { state: true },
    _filterName: { state: true },
    _filterProvider: { state: true },
    _filterState: { state: true },
    _selected: { state: true },
    _compare: { state: true },
    _diff: { state: true },
    _resolved: { state: true },
    _busy: { state: true },
    _problem: { state: true },
    _viewport: { state: true },
  };

  declare _load: Load;
  declare _target: string;
  declare _filterName: string;
  declare _filterProvider: string;
  declare _filterState: string;
  declare _selected: ReadonlySet<string>;
  /** The first member picked for a comparison. */
  declare _compare: string | undefined;
  declare _diff: { readonly diff: MemberDiff; readonly a: WorkspaceMember; readonly b: WorkspaceMember } | undefined;
  /** What the last resolution of songs not compared yet did. */
  declare _resolved: string;
  declare _busy: string | undefined;
  declare _problem: Problem | undefined;
  /** The group table's scroll position and height (a large library renders only what they show). */
  declare _viewport: { readonly top: number; readonly height: number };
  /** Measured heights of rendered groups, by group id. */
  readonly #heights = new Map<string, number>();
  /** The group holding the focus: it stays rendered while scrolled away. */
  #focusedGroup: string | undefined;
  #scrollFrame = 0;

  constructor() {
    super();
    this._load = { state: 'loading' };
    this._target = '';
    this._filterName = '';
    this._filterProvider = '';
    this._filterState = '';
    this._selected = new Set();
    this._compare = undefined;
    this._diff = undefined;
    this._resolved = '';
    this._busy = undefined;
    this._problem = undefined;
    this._viewport = { top: 0, height: 800 };
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.#reload();
  }

  #accounts(): readonly WorkspaceAccount[] {
    return this._load.state === 'loaded' ? this._load.workspace.accounts : [];
  }

  async #reload(): Promise<void> {
    const target = this.#accounts().find((account) => account.accountId === this._target);
    const result = await apiRequest(workspacePath(target ? { provider: target.provider, accountId: target.accountId } : null));
    if (!result.ok) {
      this._load = { state: 'failed', problem: result.problem };
      return;
    }
    const workspace = parseWorkspace(result.data);
    this._load = workspace ? { state: 'loaded', workspace } : { state: 'failed', problem: { title: 'Unexpected answer from the engine', status: result.status } };
  }

  async #refresh(accounts: readonly WorkspaceAccount[]): Promise<void> {
    if (this._busy) return;
    this._problem = undefined;
    for (const [index, account] of accounts.entries()) {
      this._busy = `Reading ${account.displayName ?? account.provider} on ${account.provider} (${index + 1} of ${accounts.length})…`;
      const result = await apiRequest(refreshPath(account.accountId), { method: 'POST', json: { full: false }, timeoutMs: REFRESH_TIMEOUT_MS });
      if (!result.ok) {
        this._problem = result.problem;
        break;
      }
    }
    this._busy = undefined;
    await this.#reload();
    this._announcement = this._problem ? `Refresh stopped: ${this._problem.title}.` : 'Your library is up to date.';
  }

  async #change(path: string, members: readonly string[], done: string): Promise<void> {
    if (this._busy) return;
    this._busy = 'Saving…';
    this._problem = undefined;
    const result = await apiRequest(path, { method: 'POST', json: { members } });
    this._busy = undefined;
    if (!result.ok) {
      this._problem = result.problem;
      this._announcement = `Not done: ${result.problem.title}.`;
      return;
    }
    this._selected = new Set();
    await this.#reload();
    this._announcement = done;
  }

  async #pickForCompare(member: WorkspaceMember): Promise<void> {
    if (!this._compare || this._compare === member.key) {
      this._compare = this._compare === member.key ? undefined : member.key;
      this._diff = undefined;
      this._announcement = this._compare ? `Comparing “${member.name}”: choose the playlist to compare it with.` : '';
      return;
    }
    const first = this.#members().find((candidate) => candidate.key === this._compare);
    this._compare = undefined;
    if (!first) return;
    const result = await apiRequest(diffPath(first.key, member.key));
    if (!result.ok) {
      this._problem = result.problem;
      return;
    }
    const diff = parseDiff(result.data);
    if (diff) {
      this._diff = { diff, a: first, b: member };
      this._resolved = '';
      this._announcement = `Compared: ${diff.onlyA.length} only in ${diff.a.provider}, ${diff.onlyB.length} only in ${diff.b.provider}.`;
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('#diff-heading')?.setAttribute('tabindex', '-1');
      this.renderRoot.querySelector<HTMLElement>('#diff-heading')?.focus();
    }
  }

  /** Matches the songs the diff could not compare (searches, as many as the button said at most), then shows the new diff. */
  async #resolveUnknown(): Promise<void> {
    const pair = this._diff;
    if (!pair || this._busy) return;
    this._busy = 'Comparing the songs not compared yet…';
    const result = await apiRequest(RESOLVE_PATH, { method: 'POST', json: { a: pair.a.key, b: pair.b.key }, timeoutMs: REFRESH_TIMEOUT_MS });
    this._busy = undefined;
    if (!result.ok) {
      this._problem = result.problem;
      return;
    }
    const body = result.data as { diff?: unknown };
    const diff = parseDiff(body.diff);
    if (diff) this._diff = { ...pair, diff };
    this._resolved = resolveSummary(result.data) ?? '';
    this._announcement = this._resolved;
  }

  #migrateMissing(positions: readonly number[]): void {
    const pair = this._diff;
    if (!pair) return;
    const handover: LibraryHandover = {
      sourceAccountId: pair.a.accountId,
      sourceProvider: pair.a.provider,
      playlistId: pair.a.playlistId,
      playlistName: pair.a.name,
      trackKeys: positions.map((position) => `pos:${position}`),
      targetAccountId: pair.b.accountId,
      targetName: `${pair.b.accountName ?? pair.b.provider} on ${pair.b.provider}`,
    };
    sessionStorage.setItem(LIBRARY_HANDOVER_KEY, JSON.stringify(handover));
    location.hash = hrefFor('migrate');
  }

  #members(): WorkspaceMember[] {
    return this._load.state === 'loaded' ? this._load.workspace.groups.flatMap((group) => group.members) : [];
  }

  #visible(group: WorkspaceGroup): boolean {
    const name = this._filterName.trim().toLowerCase();
    if (name && !group.members.some((member) => member.name.toLowerCase().includes(name))) return false;
    if (this._filterProvider && !group.members.some((member) => member.provider === this._filterProvider)) return false;
    if (this._filterState && !group.members.some((member) => member.status?.state === this._filterState)) return false;
    return true;
  }

  #accountBar(accounts: readonly WorkspaceAccount[]): TemplateResult {
    return html`<ul class="accounts" data-testid="workspace-accounts">
      ${accounts.map(
        (account) => html`<li data-account-id=${account.accountId}>
          <span><span class="provider">${account.provider}</span> ${account.displayName ?? ''}</span>
          <span class="secondary-inline">${account.fetchedAt ? html`${account.playlists} playlists · read <time datetime=${account.fetchedAt}>${formatTimestamp(account.fetchedAt)}</time>` : 'Not read yet'}</span>
          <button type="button" aria-disabled=${this._busy ? 'true' : 'false'} @click=${() => void this.#refresh([account])}>Refresh</button>
        </li>`,
      )}
    </ul>`;
  }

  #filters(accounts: readonly WorkspaceAccount[]): TemplateResult {
    // Recent imports are members too (provider `import`).
    const providers = [...new Set([...accounts.map((account) => account.provider), ...this.#members().flatMap((member) => (member.provider === 'import' ? ['import'] : []))])];
    return html`<div class="filters" role="search">
      <div>
        <label for="library-name">Name</label>
        <input id="library-name" type="search" .value=${this._filterName} @input=${(event: Event) => this.#filter(() => (this._filterName = (event.currentTarget as HTMLInputElement).value))} />
      </div>
      <div>
        <label for="library-provider">Service</label>
        <select id="library-provider" @change=${(event: Event) => this.#filter(() => (this._filterProvider = (event.currentTarget as HTMLSelectElement).value))}>
          <option value="">All</option>
          ${providers.map((provider) => html`<option value=${provider} ?selected=${this._filterProvider === provider}>${provider}</option>`)}
        </select>
      </div>
      <div>
        <label for="library-target">Migration status in</label>
        <select
          id="library-target"
          @change=${(event: Event) => {
            this._target = (event.currentTarget as HTMLSelectElement).value;
            if (!this._target) this._filterState = '';
            void this.#reload();
          }}
        >
          <option value="">(no account)</option>
          ${accounts.map((account) => html`<option value=${account.accountId} ?selected=${this._target === account.accountId}>${account.displayName ?? account.accountId} on ${account.provider}</option>`)}
        </select>
      </div>
      ${this._target
        ? html`<div>
            <label for="library-state">Status</label>
            <select id="library-state" @change=${(event: Event) => this.#filter(() => (this._filterState = (event.currentTarget as HTMLSelectElement).value))}>
              <option value="">Any</option>
              ${(['not_migrated', 'partially_migrated', 'migrated', 'in_sync'] as const).map(
                (state) => html`<option value=${state} ?selected=${this._filterState === state}>${stateLabel({ state, migrated: 0, total: 0, exact: true, syncRule: null }).replace(' (0 of 0)', '')}</option>`,
              )}
            </select>
          </div>`
        : nothing}
    </div>`;
  }

  #memberRow(group: WorkspaceGroup, member: WorkspaceMember, rowIndex: number): TemplateResult {
    const checked = this._selected.has(member.key);
    const comparing = this._compare === member.key;
    return html`<tr data-testid="member-row" data-key=${member.key} data-provider=${member.provider} aria-rowindex=${rowIndex}>
      <td>
        <input
          type="checkbox"
          aria-label=${`Select ${member.name} on ${member.provider}`}
          .checked=${checked}
          @change=${() => {
            const next = new Set(this._selected);
            if (next.has(member.key)) next.delete(member.key);
            else next.add(member.key);
            this._selected = next;
          }}
        />
      </td>
      <th scope="row">${member.name}<span class="secondary">${member.accountName ?? ''}</span></th>
      <td><span class="provider">${member.provider}</span></td>
      <td>
        ${member.tracksRead
          ? html`<div class="coverage" data-testid="coverage">
              <meter min="0" max=${Math.max(group.songs, 1)} value=${member.holds} aria-label=${`${member.name} on ${member.provider} holds ${member.holds} of ${group.songs} songs`}></meter>
              <span>${member.holds} of ${group.songs} songs${member.unknown > 0 ? html` · ${member.unknown} not compared yet` : nothing}</span>
            </div>`
          : html`<span class="secondary-inline">Songs not read yet</span>`}
      </td>
      ${this._target ? this.#stateCell(member) : nothing}
      <td class="actions">
        <button type="button" data-action="compare" aria-pressed=${comparing ? 'true' : 'false'} @click=${() => void this.#pickForCompare(member)}>
          ${this._compare && !comparing ? 'Compare with this' : 'Compare'}
        </button>
      </td>
    </tr>`;
  }

  #stateCell(member: WorkspaceMember): TemplateResult {
    if (member.accountId === this._target) return html`<td class="state" data-state="target">Target account</td>`;
    // The statuses arrive with the workspace read for this target.
    if (!member.status) return html`<td class="state" data-state="pending">Checking…</td>`;
    return html`<td class="state" data-state=${member.status.state}>${stateLabel(member.status)}</td>`;
  }

  /** One group's table body; `firstRow` is its heading row's `aria-rowindex` (the table's rows count from its heading, 1). */
  #group(group: WorkspaceGroup, firstRow: number): TemplateResult {
    const columns = this._target ? 6 : 5;
    return html`<tbody class="group" data-testid="group" data-group-id=${group.id}>
      <tr class="group-head" aria-rowindex=${firstRow}>
        <th colspan=${columns} scope="rowgroup">
          ${group.name} <span class="secondary-inline">· ${group.members.length} ${group.members.length === 1 ? 'playlist' : 'playlists'} · ${group.songs} songs</span>
          ${group.reasons.length > 0 ? html`<span class="reasons" data-testid="reasons">${[...new Set(group.reasons.map((reason) => reasonLabel(reason.kind)))].join(' · ')}</span>` : nothing}
          ${groupActions(group)}
        </th>
      </tr>
      ${group.members.map((member, index) => this.#memberRow(group, member, firstRow + 1 + index))}
    </tbody>`;
  }

  /**
   * The grouped table. A large library (VIRTUALIZE_FROM groups and more) renders only the groups
   * its scroll box shows, with empty space standing for the rest; `aria-rowcount` and each row's
   * `aria-rowindex` still tell a screen reader where in the whole table it is.
   */
  #table(visible: readonly WorkspaceGroup[]): TemplateResult {
    const columns = this._target ? 6 : 5;
    const firstRows: number[] = [];
    let rows = 1;
    for (const group of visible) {
      firstRows.push(rows + 1);
      rows += 1 + group.members.length;
    }
    const virtual = visible.length >= VIRTUALIZE_FROM;
    const focused = this.#focusedGroup === undefined ? -1 : visible.findIndex((group) => group.id === this.#focusedGroup);
    const window = virtual ? groupWindow(groupHeights(visible, this.#heights), this._viewport.top, this._viewport.height, focused < 0 ? null : focused) : null;
    const spacer = (px: number) => (px > 0 ? html`<tbody aria-hidden="true" class="spacer"><tr><td colspan=${columns} style=${styleMap({ height: `${px}px` })}></td></tr></tbody>` : nothing);
    return html`<div class="table-scroll ${virtual ? 'virtual' : ''}" role="region" aria-labelledby="groups-heading" tabindex="0" @scroll=${this.#onScroll}>
      <table aria-labelledby="groups-heading" data-testid="groups-table" aria-rowcount=${rows} @focusin=${this.#onFocusIn}>
        <thead>
          <tr aria-rowindex="1">
            <th scope="col"><span class="visually-hidden">Select</span></th>
            <th scope="col">Playlist</th>
            <th scope="col">Service</th>
            <th scope="col">Songs of the group</th>
            ${this._target ? html`<th scope="col">Status</th>` : nothing}
            <th scope="col"><span class="visually-hidden">Actions</span></th>
          </tr>
        </thead>
        ${window
          ? html`${window.indexes.map((index, position) => html`${spacer(window.gapsBefore[position]!)}${this.#group(visible[index]!, firstRows[index]!)}`)}${spacer(window.gapAfter)}`
          : visible.map((group, index) => this.#group(group, firstRows[index]!))}
      </table>
    </div>`;
  }

  readonly #onScroll = (event: Event): void => {
    const box = event.currentTarget as HTMLElement;
    if (!box.classList.contains('virtual') || this.#scrollFrame) return;
    this.#scrollFrame = requestAnimationFrame(() => {
      this.#scrollFrame = 0;
      this._viewport = { top: box.scrollTop, height: box.clientHeight };
    });
  };

  readonly #onFocusIn = (event: FocusEvent): void => {
    const group = (event.target as HTMLElement).closest('tbody.group');
    this.#focusedGroup = group?.getAttribute('data-group-id') ?? undefined;
  };

  /** A filter changed: the (shorter) list starts from its top. */
  #filter(change: () => void): void {
    change();
    const box = this.renderRoot.querySelector<HTMLElement>('.table-scroll');
    if (box) box.scrollTop = 0;
    this._viewport = { top: 0, height: this._viewport.height };
  }

  /** Measures the rendered groups of a virtualized table, so the space standing for them is right. */
  protected override updated(changed: PropertyValues): void {
    super.updated(changed);
    const box = this.renderRoot.querySelector<HTMLElement>('.table-scroll.virtual');
    if (!box) return;
    let moved = Math.abs(box.clientHeight - this._viewport.height) > 1;
    for (const body of box.querySelectorAll<HTMLElement>('tbody.group')) {
      const id = body.getAttribute('data-group-id')!;
      const height = body.getBoundingClientRect().height;
      if (Math.abs((this.#heights.get(id) ?? -10) - height) > 1) {
        this.#heights.set(id, height);
        moved = true;
      }
    }
    if (moved) this._viewport = { top: box.scrollTop, height: box.clientHeight };
  }

  #body(): TemplateResult {
    const load = this._load;
    if (load.state === 'loading') return html`<p role="status">Loading your library…</p>`;
    if (load.state === 'failed') {
      return html`<opl-problem-notice .problem=${load.problem}>${accessHint(load.problem)}
        <p><button type="button" @click=${() => void this.#reload()}>Try again</button></p></opl-problem-notice>`;
    }
    const { accounts, groups } = load.workspace;
    if (accounts.length === 0) return html`<p class="empty" data-testid="no-accounts">No account is connected yet. Connect one on <a href=${hrefFor('connections')}>Connections</a>.</p>`;
    const visible = groups.filter((group) => this.#visible(group));
    const selected = [...this._selected];
    const target = accounts.find((account) => account.accountId === this._diff?.b.accountId);
    return html`${this.#accountBar(accounts)}
      <p>
        <button type="button" class="primary" data-action="refresh-all" aria-disabled=${this._busy ? 'true' : 'false'} @click=${() => void this.#refresh(accounts)}>Refresh all accounts</button>
        <span role="status" data-testid="busy">${this._busy ?? ''}</span>
      </p>
      ${this.#filters(accounts)}
      <div class="toolbar">
        <span>${selected.length} selected</span>
        <button type="button" data-action="join" aria-disabled=${selected.length < 2 ? 'true' : 'false'} @click=${() => selected.length >= 2 && void this.#change(JOIN_PATH, selected, 'Joined into one group.')}>Join into one group</button>
        <button type="button" data-action="split" aria-disabled=${selected.length < 1 ? 'true' : 'false'} @click=${() => selected.length >= 1 && void this.#change(SPLIT_PATH, selected, 'Taken out of their group.')}>Split out of their group</button>
      </div>
      ${groups.length === 0
        ? html`<p class="empty" data-testid="no-groups">Nothing read yet: refresh your accounts to see their playlists here.</p>`
        : html`${this.#table(visible)}
            <p class="hint" data-testid="groups-shown">${visible.length} of ${groups.length} groups shown.</p>`}
      <opl-library-diff
        .diff=${this._diff?.diff}
        .targetName=${target ? `${target.displayName ?? target.provider} on ${target.provider}` : ''}
        .resolved=${this._resolved}
        @opl-migrate-missing=${(event: CustomEvent<number[]>) => this.#migrateMissing(event.detail)}
        @opl-resolve-unknown=${() => void this.#resolveUnknown()}
      ></opl-library-diff>`;
  }

  override render(): TemplateResult {
    return html`
      ${this.summary ? html`<p class="summary">${this.summary}</p>` : nothing}
      ${this._problem ? html`<opl-problem-notice .problem=${this._problem} data-testid="library-problem">${accessHint(this._problem)}</opl-problem-notice>` : nothing}
      <section aria-labelledby="groups-heading">
        <h2 id="groups-heading">Your playlists, grouped across services</h2>
        <p class="hint">The same playlist on several services is one group: linked by you, by a migration or sync rule, by songs in common, or by name when the songs agree. Nothing changes on the services.</p>
        ${this.#body()}
      </section>
      <span class="visually-hidden" role="status" aria-live="polite" data-testid="announcement">${this._announcement}</span>
    `;
  }
}
