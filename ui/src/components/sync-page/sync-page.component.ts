import { html, nothing, type TemplateResult } from 'lit';
import { apiRequest } from '../../api/http.ts';
import type { Problem } from '../../api/problem.ts';
import { migrationsListPath, parseJobs, type MigrationJob } from '../../api/migrations.ts';
import {
  approvePath,
  canStartRule,
  createRuleRequest,
  KEEP_IN_SYNC_KEY,
  parseMirrorPreview,
  parseRule,
  parseRules,
  ruleStateLabel,
  scheduleLabel,
  SYNC_EVENTS_PATH,
  SYNCS_PATH,
  syncPath,
  type MirrorPreview,
  type Schedule,
  type SyncRule,
} from '../../api/syncs.ts';
import { formatTimestamp } from '../../api/timestamp.ts';
import { ACCOUNTS_PATH, parseAccounts } from '../../api/connections.ts';
import { DEMO_CHANGE_PATH, DEMO_CHANGES, demoChangeAnnouncement, demoChangeRequest, parseDemoChange, type DemoChange } from '../../api/demo.ts';
import { hrefFor } from '../../router/route.ts';
import { formStyles } from '../../theme/form.styles.ts';
import { pageStyles } from '../../theme/page.styles.ts';
import { sharedStyles } from '../../theme/shared.styles.ts';
import { tableStyles } from '../../theme/table.styles.ts';
import { accessHint } from '../problem-notice/access-hint.ts';
import { OplPage, scrollingTable } from '../kit/index.ts';
import '../problem-notice/index.ts';
import { syncPageStyles } from './sync-page.styles.ts';

type Load = { readonly state: 'loading' } | { readonly state: 'loaded'; readonly rules: readonly SyncRule[] } | { readonly state: 'failed'; readonly problem: Problem };

const INTERVALS: readonly { minutes: number; label: string }[] = [
  { minutes: 15, label: 'Every 15 minutes' },
  { minutes: 60, label: 'Every hour' },
  { minutes: 360, label: 'Every 6 hours' },
  { minutes: 1440, label: 'Every day' },
];

/** How many recent migrations the picker offers; older ones arrive through History's "Keep in sync". */
const PICKER_JOBS = 200;
/** Events come in bursts (a run changes its rule and itself): one reload per burst. */
const RELOAD_AFTER_EVENT_MS = 150;

/**
 * Sync: the owner's rules with their state, next and last run, and the moves each allows (run now,
 * pause, resume, remove); above them, a rule is made from a finished migration (History's "Keep in
 * sync" fills it in, or the picker offers the recent finished ones). A rule starts add-only; its
 * mirror preview shows what mirror would remove, move and add (or why the target cannot mirror)
 * before mirror is chosen, and before a run over its removal cap is approved. The rule and run
 * events keep the table current while open.
 */
export class OplSyncPage extends OplPage {
  static override styles = [sharedStyles, pageStyles, tableStyles, formStyles, syncPageStyles];

  static override properties = {
    _load: { state: true },
    _busy: { state: true },
    _problem: { state: true },
    _migrationId: { state: true },
    _scheduleKind: { state: true },
    _origins: { state: true },
    _demoAccounts: { state: true },
    _preview: { state: true },
  };

  declare _load: Load;
  declare _busy: string | undefined;
  declare _problem: Problem | undefined;
  declare _migrationId: string;
  declare _scheduleKind: 'interval' | 'daily';
  /** Finished migrations a rule can start from, newest first; undefined while loading. */
  declare _origins: readonly MigrationJob[] | undefined;
  /** Connected demo accounts (demo mode): their rules offer "Demo: change the source". */
  declare _demoAccounts: ReadonlySet<string>;
  /** The open mirror preview: its rule, and what the engine answered. */
  declare _preview: { readonly ruleId: string; readonly preview: MirrorPreview | undefined } | undefined;
  #events: EventSource | undefined;
  #reloadTimer: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    super();
    this._load = { state: 'loading' };
    this._busy = undefined;
    this._problem = undefined;
    this._migrationId = '';
    this._scheduleKind = 'interval';
    this._origins = undefined;
    this._demoAccounts = new Set();
    this._preview = undefined;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    const handed = sessionStorage.getItem(KEEP_IN_SYNC_KEY);
    if (handed) {
      sessionStorage.removeItem(KEEP_IN_SYNC_KEY);
      this._migrationId = handed;
    }
    void this.#reload();
    void this.#loadOrigins();
    void this.#loadDemoAccounts();
    this.#follow();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#events?.close();
    this.#events = undefined;
    clearTimeout(this.#reloadTimer);
  }

  /** Every rule or run change reloads the list (EventSource resumes with Last-Event-ID by itself). */
  #follow(): void {
    const events = new EventSource(SYNC_EVENTS_PATH);
    this.#events = events;
    const soon = () => {
      clearTimeout(this.#reloadTimer);
      this.#reloadTimer = setTimeout(() => void this.#reload(), RELOAD_AFTER_EVENT_MS);
    };
    events.addEventListener('rule', soon);
    events.addEventListener('run', soon);
    events.addEventListener('rule_deleted', soon);
  }

  async #loadOrigins(): Promise<void> {
    const result = await apiRequest(migrationsListPath(PICKER_JOBS));
    const jobs = result.ok ? parseJobs(result.data) : undefined;
    this._origins = (jobs ?? []).filter(canStartRule);
  }

  async #loadDemoAccounts(): Promise<void> {
    const result = await apiRequest(ACCOUNTS_PATH);
    const accounts = result.ok ? parseAccounts(result.data) : undefined;
    this._demoAccounts = new Set((accounts ?? []).filter((account) => account.demo).map((account) => account.id));
  }

  /** Demo mode: changes the rule's source playlist at the demo provider, and says what changed. */
  async #demoChange(rule: SyncRule, change: DemoChange): Promise<void> {
    if (this._busy) return;
    this._busy = rule.id;
    this._problem = undefined;
    const result = await apiRequest(DEMO_CHANGE_PATH, { method: 'POST', json: demoChangeRequest(rule.sourceAccountId, rule.sourcePlaylistId, change) });
    this._busy = undefined;
    if (!result.ok) {
      this._problem = result.problem;
      this._announcement = `Demo: nothing changed: ${result.problem.title}.`;
      return;
    }
    const outcome = parseDemoChange(result.data);
    this._announcement = outcome ? demoChangeAnnouncement(outcome, rule.name || 'Untitled playlist') : 'Demo: the source playlist changed.';
  }

  #demoActions(rule: SyncRule, name: string): TemplateResult | typeof nothing {
    if (!this._demoAccounts.has(rule.sourceAccountId) || rule.collectionKind !== 'PLAYLIST') return nothing;
    return html`<div class="demo-actions" role="group" aria-label=${`Demo: change the source of ${name}`} data-testid="demo-actions">
      <span class="demo-tag">Demo: change the source</span>
      ${DEMO_CHANGES.map(({ change, label }) => html`<button type="button" data-demo-change=${change} aria-disabled=${this._busy === rule.id ? 'true' : 'false'} @click=${() => void this.#demoChange(rule, change)}>${label}</button>`)}
    </div>`;
  }

  async #reload(): Promise<void> {
    const result = await apiRequest(SYNCS_PATH);
    if (!result.ok) {
      this._load = { state: 'failed', problem: result.problem };
      return;
    }
    const rules = parseRules(result.data);
    this._load = rules ? { state: 'loaded', rules } : { state: 'failed', problem: { title: 'Unexpected answer from the engine', status: result.status, detail: `GET ${SYNCS_PATH} did not return the documented fields.` } };
  }

  async #act(rule: SyncRule, action: 'pause' | 'resume' | 'run' | 'delete', done: string): Promise<void> {
    if (this._busy) return;
    this._busy = rule.id;
    this._problem = undefined;
    const result = await apiRequest(action === 'delete' ? syncPath(rule.id) : syncPath(rule.id, action), { method: action === 'delete' ? 'DELETE' : 'POST' });
    this._busy = undefined;
    if (!result.ok) {
      this._problem = result.problem;
      this._announcement = `Not done: ${result.problem.title}.`;
      return;
    }
    await this.#reload();
    this._announcement = done;
  }

  /** Opens (or refreshes) a rule's mirror preview: what the next mirror run would do. */
  async #openPreview(rule: SyncRule): Promise<void> {
    this._preview = { ruleId: rule.id, preview: undefined };
    this._problem = undefined;
    const result = await apiRequest(syncPath(rule.id, 'preview'));
    if (this._preview.ruleId !== rule.id) return;
    if (!result.ok) {
      this._problem = result.problem;
      this._preview = undefined;
      return;
    }
    this._preview = { ruleId: rule.id, preview: parseMirrorPreview(result.data) };
  }

  async #setMode(rule: SyncRule, mode: 'add_only' | 'mirror', name: string): Promise<void> {
    if (this._busy) return;
    this._busy = rule.id;
    this._problem = undefined;
    const result = await apiRequest(syncPath(rule.id), { method: 'PATCH', json: { mode } });
    this._busy = undefined;
    if (!result.ok) {
      this._problem = result.problem;
      this._announcement = `Not done: ${result.problem.title}.`;
      return;
    }
    this._preview = undefined;
    await this.#reload();
    this._announcement = mode === 'mirror' ? `“${name}” now mirrors its source.` : `“${name}” is add-only again.`;
  }

  async #approve(rule: SyncRule, runId: string, name: string): Promise<void> {
    if (this._busy) return;
    this._busy = rule.id;
    this._problem = undefined;
    const result = await apiRequest(approvePath(rule.id, runId), { method: 'POST' });
    this._busy = undefined;
    if (!result.ok) {
      this._problem = result.problem;
      this._announcement = `Not approved: ${result.problem.title}.`;
      return;
    }
    this._preview = undefined;
    await this.#reload();
    this._announcement = `The removals of “${name}” are approved; the run goes on.`;
  }

  #previewRow(rule: SyncRule, name: string): TemplateResult | typeof nothing {
    if (this._preview?.ruleId !== rule.id) return nothing;
    const preview = this._preview.preview;
    const approve = rule.action?.type === 'approve' ? rule.action.runId : null;
    let body: TemplateResult;
    if (!preview) body = html`<p role="status">Reading both playlists…</p>`;
    else if (!preview.canMirror) body = html`<p data-testid="mirror-unavailable">Mirror is not possible here: ${preview.reason ?? 'the target cannot remove and reorder songs.'}</p>`;
    else
      body = html`<p>
          A mirror run would now remove <strong data-testid="remove-count">${preview.removeCount}</strong>, move ${preview.moveCount} and add ${preview.addCount} of the target's songs. It
          removes and moves only songs this rule added: your own ${preview.foreignEntries} ${preview.foreignEntries === 1 ? 'entry stays' : 'entries stay'} untouched, and ${preview.unmatchedCount} unmatched
          ${preview.unmatchedCount === 1 ? 'song' : 'songs'} never cause a removal. More than ${preview.removalCap} removals wait for your approval.
        </p>
        ${preview.remove.length > 0 ? html`<p>Would remove:</p><ul data-testid="remove-list">${preview.remove.map((title) => html`<li>${title}</li>`)}</ul>` : nothing}
        ${rule.mode === 'add_only' ? html`<button type="button" data-action="use-mirror" @click=${() => void this.#setMode(rule, 'mirror', name)}>Use mirror</button>` : nothing}
        ${approve ? html`<button type="button" data-action="approve" @click=${() => void this.#approve(rule, approve, name)}>Approve these removals</button>` : nothing}`;
    return html`<tr data-testid="mirror-preview" data-rule-id=${rule.id}>
      <td colspan="7">
        <section aria-label=${`Mirror preview of ${name}`}>
          ${body}
          ${rule.mode === 'mirror' ? html`<button type="button" data-action="use-add-only" @click=${() => void this.#setMode(rule, 'add_only', name)}>Back to add-only</button>` : nothing}
          <button type="button" data-action="close-preview" @click=${() => (this._preview = undefined)}>Close</button>
        </section>
      </td>
    </tr>`;
  }

  async #create(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    if (this._busy) return;
    const formElement = event.target as HTMLFormElement;
    const form = new FormData(formElement);
    const field = (name: string, fallback: string) => {
      const value = form.get(name);
      return typeof value === 'string' && value !== '' ? value : fallback;
    };
    const migrationId = field('migration', '');
    if (migrationId === '') {
      this._problem = { title: 'Choose a migration', status: 0, detail: 'Choose the finished migration of one playlist to keep in sync, or use “Keep in sync” on the History page.' };
      return;
    }
    const schedule: Schedule =
      this._scheduleKind === 'daily'
        ? { kind: 'daily', at: field('at', '03:00'), timeZone: field('tz', 'UTC') }
        : { kind: 'interval', everyMinutes: Number(field('every', '60')) };
    this._busy = 'create';
    this._problem = undefined;
    const result = await apiRequest(SYNCS_PATH, { method: 'POST', json: createRuleRequest(migrationId, schedule) });
    this._busy = undefined;
    if (!result.ok) {
      this._problem = result.problem;
      this._announcement = `No rule made: ${result.problem.title}.`;
      return;
    }
    const rule = parseRule(result.data);
    this._migrationId = '';
    await this.updateComplete;
    formElement.reset();
    await this.#reload();
    this._announcement = `Keeping “${rule?.name ?? 'the playlist'}” in sync: ${rule ? scheduleLabel(rule.schedule).toLowerCase() : ''}.`;
  }

  #form(): TemplateResult {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    return html`<form class="create" data-testid="create-rule" @submit=${(event: SubmitEvent) => void this.#create(event)}>
      <div>
        <label for="sync-migration">Finished migration</label>
        <p class="hint" id="sync-migration-hint">One whole playlist, migrated from a connected account. “Keep in sync” on <a href=${hrefFor('history')}>History</a> chooses it for you.</p>
        ${this.#originPicker()}
      </div>
      <fieldset>
        <legend>How often</legend>
        <label><input type="radio" name="kind" value="interval" .checked=${this._scheduleKind === 'interval'} @change=${() => (this._scheduleKind = 'interval')} /> Every so often</label>
        ${this._scheduleKind === 'interval'
          ? html`<select name="every" aria-label="Interval">${INTERVALS.map((entry) => html`<option value=${entry.minutes} ?selected=${entry.minutes === 60}>${entry.label}</option>`)}</select>`
          : nothing}
        <label><input type="radio" name="kind" value="daily" .checked=${this._scheduleKind === 'daily'} @change=${() => (this._scheduleKind = 'daily')} /> Daily at a time</label>
        ${this._scheduleKind === 'daily'
          ? html`<label for="sync-at">Time</label><input id="sync-at" name="at" type="time" value="03:00" required />
              <label for="sync-tz">Time zone</label><input id="sync-tz" name="tz" .value=${zone} required />`
          : nothing}
      </fieldset>
      <fieldset>
        <legend>Mode</legend>
        <label><input type="radio" name="mode" value="add_only" checked /> Add only: new songs of the source are added; nothing is removed or moved</label>
        <p class="hint" id="sync-mirror-hint">
          Mirror (also removing and reordering to match the source) is chosen on a rule once it exists: its “Mirror preview” shows first what mirror would remove, or why its target cannot
          mirror.
        </p>
      </fieldset>
      <p><button type="submit" aria-disabled=${this._busy === 'create' ? 'true' : 'false'}>${this._busy === 'create' ? 'Making the rule…' : 'Keep in sync'}</button></p>
    </form>`;
  }

  #originPicker(): TemplateResult {
    const origins = this._origins;
    if (!origins) return html`<p role="status">Loading your finished migrations…</p>`;
    const chosen = this._migrationId;
    // A migration handed over from History may be older than the ones listed: it is offered too.
    const handedOnly = chosen !== '' && !origins.some((job) => job.id === chosen);
    if (origins.length === 0 && !handedOnly) {
      return html`<p class="empty" data-testid="no-origins">No finished migration from a connected account yet. <a href=${hrefFor('migrate')}>Migrate a playlist</a> first.</p>`;
    }
    return html`<select id="sync-migration" name="migration" aria-describedby="sync-migration-hint" @change=${(event: Event) => (this._migrationId = (event.target as HTMLSelectElement).value)}>
      <option value="" ?selected=${chosen === ''}>Choose a migration…</option>
      ${handedOnly ? html`<option value=${chosen} selected>The migration chosen on History</option>` : nothing}
      ${origins.map(
        (job) => html`<option value=${job.id} ?selected=${job.id === chosen}>${job.label} — ${job.sourceProvider} → ${job.targetProvider}, ${formatTimestamp(job.completedAt ?? job.createdAt)}</option>`,
      )}
    </select>`;
  }

  #row(rule: SyncRule): TemplateResult {
    const busy = this._busy === rule.id;
    const name = rule.name || 'Untitled playlist';
    return html`<tr data-testid="rule-row" data-rule-id=${rule.id} data-status=${rule.status}>
      <th scope="row">${name}</th>
      <td>${rule.sourceProvider} → ${rule.targetProvider}</td>
      <td>${scheduleLabel(rule.schedule)}<br /><span data-testid="rule-mode">${rule.mode === 'mirror' ? 'Mirror' : 'Add only'}</span></td>
      <td class="state" data-status=${rule.status}>
        ${ruleStateLabel(rule)}
        ${rule.action?.type === 'reconnect' ? html` <a href=${hrefFor('connections')}>Reconnect</a>` : nothing}
        ${rule.status === 'review_required' && rule.activeRun?.migrationJobId ? html` <a href=${hrefFor('history')}>Review on History</a>` : nothing}
        ${rule.action?.type === 'approve' ? html` <button type="button" data-action="review-removals" @click=${() => void this.#openPreview(rule)}>Review removals</button>` : nothing}
      </td>
      <td>${rule.nextRunAt ? html`<time datetime=${rule.nextRunAt}>${formatTimestamp(rule.nextRunAt)}</time>` : '—'}</td>
      <td>${rule.lastRunAt ? html`<time datetime=${rule.lastRunAt}>${formatTimestamp(rule.lastRunAt)}</time>` : 'Never'}</td>
      <td class="actions">
        ${rule.status === 'active' ? html`<button type="button" data-action="run" aria-disabled=${busy ? 'true' : 'false'} @click=${() => void this.#act(rule, 'run', `A run of “${name}” is queued.`)}>Run now</button>` : nothing}
        ${rule.status === 'paused'
          ? html`<button type="button" data-action="resume" @click=${() => void this.#act(rule, 'resume', `“${name}” is scheduled again.`)}>Resume</button>`
          : html`<button type="button" data-action="pause" @click=${() => void this.#act(rule, 'pause', `“${name}” is paused.`)}>Pause</button>`}
        <button type="button" data-action="preview" aria-label=${`Mirror preview of ${name}`} @click=${() => void this.#openPreview(rule)}>Mirror preview</button>
        <button type="button" data-action="delete" aria-label=${`Remove the rule of ${name}`} @click=${() => void this.#act(rule, 'delete', `The rule of “${name}” is removed; the playlists stay.`)}>Remove</button>
        ${this.#demoActions(rule, name)}
      </td>
    </tr>
    ${this.#previewRow(rule, name)}`;
  }

  #body(): TemplateResult {
    const load = this._load;
    if (load.state === 'loading') return html`<p role="status">Loading your sync rules…</p>`;
    if (load.state === 'failed') {
      return html`<opl-problem-notice .problem=${load.problem}>${accessHint(load.problem)}
        <p><button type="button" @click=${() => void this.#reload()}>Try again</button></p></opl-problem-notice>`;
    }
    if (load.rules.length === 0) return html`<p class="empty" data-testid="no-rules">No sync rules yet.</p>`;
    return scrollingTable({
      headingId: 'rules-heading',
      testId: 'rules-table',
      columns: [{ label: 'Playlist' }, { label: 'Route' }, { label: 'Schedule' }, { label: 'State' }, { label: 'Next run' }, { label: 'Last run' }, { label: 'Actions', hidden: true }],
      rows: load.rules.map((rule) => this.#row(rule)),
    });
  }

  override render(): TemplateResult {
    return html`
      ${this.summary ? html`<p class="summary">${this.summary}</p>` : nothing}
      <section aria-labelledby="create-heading">
        <h2 id="create-heading">New rule</h2>
        ${this.#form()}
      </section>
      ${this._problem ? html`<opl-problem-notice .problem=${this._problem} data-testid="sync-problem"></opl-problem-notice>` : nothing}
      <section aria-labelledby="rules-heading">
        <h2 id="rules-heading">Your sync rules</h2>
        <p class="hint">
          A rule reads its source on schedule and adds what it gained to the same target playlist, never a song the target already has. A mirror rule also removes and reorders the
          songs it added, to follow the source.
        </p>
        ${this.#body()}
      </section>
      <span class="visually-hidden" role="status" aria-live="polite" data-testid="announcement">${this._announcement}</span>
    `;
  }
}
