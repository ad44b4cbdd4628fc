import { html, nothing, type TemplateResult } from 'lit';
import { ACCOUNTS_PATH, parseAccounts, type AccountView } from '../../api/connections.ts';
import { apiRequest } from '../../api/http.ts';
import { parsePlaylistListing, playlistsPath, type PlaylistSummary } from '../../api/playlists.ts';
import { unexpectedAnswer, type Problem } from '../../api/problem.ts';
import {
  formatBytes,
  isRunning,
  parseProfile,
  parseProfiles,
  parseSnapshot,
  parseSnapshotListing,
  profilePath,
  PROFILES_PATH,
  profileRequest,
  restoreRequest,
  retentionLabel,
  scheduleLabel,
  snapshotPath,
  SNAPSHOTS_PATH,
  statusLabel,
  UPLOAD_PATH,
  verificationLabel,
  type Snapshot,
  type SnapshotProfile,
} from '../../api/snapshots.ts';
import { formatTimestamp } from '../../api/timestamp.ts';
import { FocusTarget, OplPage, scrollingTable } from '../kit/index.ts';
import { formStyles } from '../../theme/form.styles.ts';
import { pageStyles } from '../../theme/page.styles.ts';
import { sharedStyles } from '../../theme/shared.styles.ts';
import { tableStyles } from '../../theme/table.styles.ts';
import { accessHint } from '../problem-notice/access-hint.ts';
import '../problem-notice/index.ts';
import { profileForm, readProfileForm } from './profile-form.template.ts';
import { OplSnapshotHistory } from './snapshot-history.component.ts';
import { restoreForm, snapshotTable } from './snapshot-list.template.ts';
import { snapshotsPageStyles } from './snapshots-page.styles.ts';

if (!customElements.get('opl-snapshot-history')) customElements.define('opl-snapshot-history', OplSnapshotHistory);

type Load =
  | { readonly state: 'loading' }
  | { readonly state: 'loaded'; readonly profiles: readonly SnapshotProfile[]; readonly snapshots: readonly Snapshot[]; readonly accounts: readonly AccountView[]; readonly maxUploadBytes: number }
  | { readonly state: 'failed'; readonly problem: Problem };

/** What the form edits: a new profile, or an existing one. */
type Editing = { readonly profile: SnapshotProfile | null } | undefined;

/**
 * Snapshots: profiles (which accounts and collections, a schedule, a retention policy), snapshots
 * taken now with live progress (server-sent events from `/api/snapshots/{id}/events`), the list
 * with size, contents, partial failures and verification, and the moves on each: verify,
 * download, restore (a migration, linked to History), delete; and uploads of archives made
 * elsewhere, verified by the engine before they are kept. The diff view and "a playlist as it was"
 * are `opl-snapshot-history`.
 */
export class OplSnapshotsPage extends OplPage {
  static override styles = [sharedStyles, pageStyles, tableStyles, formStyles, snapshotsPageStyles];

  static override properties = {
    _load: { state: true },
    _busy: { state: true },
    _problem: { state: true },
    _editing: { state: true },
    _formError: { state: true },
    _collections: { state: true },
    _restoring: { state: true },
    _restoreJob: { state: true },
    _acknowledge: { state: true },
    _uploadResult: { state: true },
  };

  declare _load: Load;
  declare _busy: string | undefined;
  declare _problem: Problem | undefined;
  declare _editing: Editing;
  declare _formError: string | null;
  declare _collections: ReadonlyMap<string, readonly PlaylistSummary[] | 'loading' | 'failed'>;
  declare _restoring: string | undefined;
  declare _restoreJob: string | null;
  declare _acknowledge: boolean;
  declare _uploadResult: { readonly ok: boolean; readonly text: string } | undefined;

  readonly #streams = new Map<string, EventSource>();
  readonly #focus = new FocusTarget();

  constructor() {
    super();
    this._load = { state: 'loading' };
    this._busy = undefined;
    this._problem = undefined;
    this._editing = undefined;
    this._formError = null;
    this._collections = new Map();
    this._restoring = undefined;
    this._restoreJob = null;
    this._acknowledge = false;
    this._uploadResult = undefined;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.#reload();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    for (const stream of this.#streams.values()) stream.close();
    this.#streams.clear();
  }

  protected override updated(): void {
    this.#focus.apply(this.renderRoot);
  }

  async #reload(): Promise<void> {
    const [profiles, snapshots, accounts] = await Promise.all([apiRequest(PROFILES_PATH), apiRequest(SNAPSHOTS_PATH), apiRequest(ACCOUNTS_PATH)]);
    for (const result of [profiles, snapshots, accounts]) {
      if (!result.ok) return void (this._load = { state: 'failed', problem: result.problem });
    }
    const parsedProfiles = profiles.ok ? parseProfiles(profiles.data) : undefined;
    const listing = snapshots.ok ? parseSnapshotListing(snapshots.data) : undefined;
    const parsedAccounts = accounts.ok ? parseAccounts(accounts.data) : undefined;
    if (!parsedProfiles || !listing || !parsedAccounts) {
      this._load = { state: 'failed', problem: unexpectedAnswer(0, `GET ${SNAPSHOTS_PATH}`) };
      return;
    }
    this._load = { state: 'loaded', profiles: parsedProfiles, snapshots: listing.snapshots, accounts: parsedAccounts, maxUploadBytes: listing.maxUploadBytes };
    for (const snapshot of listing.snapshots) if (isRunning(snapshot)) this.#follow(snapshot.id);
  }

  #loaded(): Extract<Load, { state: 'loaded' }> | undefined {
    return this._load.state === 'loaded' ? this._load : undefined;
  }

  #replaceSnapshot(snapshot: Snapshot): void {
    const load = this.#loaded();
    if (!load) return;
    const known = load.snapshots.some((entry) => entry.id === snapshot.id);
    this._load = { ...load, snapshots: known ? load.snapshots.map((entry) => (entry.id === snapshot.id ? snapshot : entry)) : [snapshot, ...load.snapshots] };
  }

  /** Each change of a snapshot being taken arrives as an event (EventSource resumes with Last-Event-ID by itself). */
  #follow(snapshotId: string): void {
    if (this.#streams.has(snapshotId)) return;
    const events = new EventSource(snapshotPath(snapshotId, 'events'));
    this.#streams.set(snapshotId, events);
    events.addEventListener('snapshot', (event: MessageEvent<string>) => {
      const snapshot = parseSnapshot(JSON.parse(event.data) as unknown);
      if (!snapshot) return;
      this.#replaceSnapshot(snapshot);
      if (!isRunning(snapshot)) {
        events.close();
        this.#streams.delete(snapshotId);
        this._announcement = `Snapshot ${statusLabel(snapshot).toLowerCase()}: ${snapshot.collectionCount ?? 0} collections, ${snapshot.itemCount ?? 0} items, ${formatBytes(snapshot.archiveBytes)}.`;
      }
    });
  }

  async #request(busy: string, path: string, init: Parameters<typeof apiRequest>[1]): Promise<unknown> {
    if (this._busy) return undefined;
    this._busy = busy;
    this._problem = undefined;
    const result = await apiRequest(path, init);
    this._busy = undefined;
    if (!result.ok) {
      this._problem = result.problem;
      this._announcement = `Not done: ${result.problem.title}.`;
      return undefined;
    }
    return result.data ?? null;
  }

  async #takeNow(profile: SnapshotProfile): Promise<void> {
    const data = await this.#request(profile.id, SNAPSHOTS_PATH, { method: 'POST', json: { profile_id: profile.id } });
    const snapshot = data === undefined ? undefined : parseSnapshot(data);
    if (!snapshot) return;
    this.#replaceSnapshot(snapshot);
    this._announcement = `A snapshot of “${profile.name}” is being taken.`;
    this.#follow(snapshot.id);
  }

  #edit(profile: SnapshotProfile | null): void {
    const load = this.#loaded();
    if (!load) return;
    this._editing = { profile };
    this._formError = null;
    this.#focus.set('profile-form-heading');
    for (const account of load.accounts) {
      if (this._collections.has(account.id)) continue;
      this._collections = new Map(this._collections).set(account.id, 'loading');
      void apiRequest(playlistsPath(account.id)).then((result) => {
        const listing = result.ok ? parsePlaylistListing(result.data) : undefined;
        this._collections = new Map(this._collections).set(account.id, listing ? listing.playlists : 'failed');
      });
    }
  }

  async #saveProfile(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const editing = this._editing;
    if (!editing || this._busy) return;
    const input = readProfileForm(event.target as HTMLFormElement);
    if (typeof input === 'string') {
      this._formError = input;
      return;
    }
    const data = await this.#request('profile', editing.profile ? profilePath(editing.profile.id) : PROFILES_PATH, { method: editing.profile ? 'PUT' : 'POST', json: profileRequest(input) });
    const saved = data === undefined ? undefined : parseProfile(data);
    if (!saved) return;
    this._editing = undefined;
    await this.#reload();
    this._announcement = `Profile “${saved.name}” saved. ${scheduleLabel(saved.schedule)}.`;
  }

  async #deleteProfile(profile: SnapshotProfile): Promise<void> {
    if ((await this.#request(profile.id, profilePath(profile.id), { method: 'DELETE' })) === undefined) return;
    await this.#reload();
    this._announcement = `Profile “${profile.name}” deleted; its snapshots stay.`;
  }

  async #verify(snapshot: Snapshot): Promise<void> {
    const data = await this.#request(snapshot.id, snapshotPath(snapshot.id, 'verify'), { method: 'POST', json: {}, timeoutMs: 600_000 });
    const verified = data === undefined ? undefined : parseSnapshot(data);
    if (!verified) return;
    this.#replaceSnapshot(verified);
    this._announcement = `${verificationLabel(verified)}.`;
  }

  async #remove(snapshot: Snapshot): Promise<void> {
    if ((await this.#request(snapshot.id, snapshotPath(snapshot.id), { method: 'DELETE' })) === undefined) return;
    if (this._restoring === snapshot.id) this._restoring = undefined;
    await this.#reload();
    this._announcement = `The snapshot of ${formatTimestamp(snapshot.createdAt)} is deleted.`;
  }

  #openRestore(snapshot: Snapshot): void {
    this._restoring = snapshot.id;
    this._restoreJob = null;
    this._acknowledge = false;
    this.#focus.set('restore-heading');
  }

  async #restore(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const snapshotId = this._restoring;
    if (!snapshotId || this._busy) return;
    const data = new FormData(event.target as HTMLFormElement);
    const collections = data.getAll('collection').filter((entry): entry is string => typeof entry === 'string');
    const chosenTarget = data.get('target');
    const target = typeof chosenTarget === 'string' ? chosenTarget : '';
    const split = target.indexOf(':');
    if (collections.length === 0 || split < 0) {
      this._problem = { title: 'Choose what to restore', status: 0, detail: 'Choose at least one collection and a target account.' };
      return;
    }
    this._busy = 'restore';
    this._problem = undefined;
    const result = await apiRequest('/api/migrations', { method: 'POST', json: restoreRequest(snapshotId, collections, { provider: target.slice(0, split), accountId: target.slice(split + 1) }, data.get('acknowledge') === 'yes') });
    this._busy = undefined;
    if (!result.ok) {
      this._problem = result.problem;
      // The safe defaults warn (e.g. another job moments ago): the user reads them and acknowledges.
      if (result.problem.code === 'migration_warnings') this._acknowledge = true;
      this._announcement = `The restore did not start: ${result.problem.title}.`;
      return;
    }
    const jobId = typeof (result.data as { id?: unknown } | undefined)?.id === 'string' ? (result.data as { id: string }).id : null;
    this._restoreJob = jobId;
    this._announcement = 'The restore is running as a migration; follow it on History.';
  }

  async #upload(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const load = this.#loaded();
    const input = (event.target as HTMLFormElement).querySelector<HTMLInputElement>('input[type="file"]');
    const file = input?.files?.[0];
    if (!load || !file || this._busy) {
      this._uploadResult = { ok: false, text: 'Choose a snapshot archive (.zip) first.' };
      return;
    }
    if (file.size > load.maxUploadBytes) {
      this._uploadResult = { ok: false, text: `Refused: the file is ${formatBytes(file.size)}, larger than the ${formatBytes(load.maxUploadBytes)} this engine accepts (OPL_SNAPSHOT_MAX_ARCHIVE_BYTES).` };
      return;
    }
    this._busy = 'upload';
    this._uploadResult = undefined;
    const result = await apiRequest(UPLOAD_PATH, { method: 'POST', body: file, headers: { 'content-type': 'application/zip' }, timeoutMs: 600_000 });
    this._busy = undefined;
    if (!result.ok) {
      const reason = typeof (result.body as { reason?: unknown } | undefined)?.reason === 'string' ? (result.body as { reason: string }).reason : null;
      this._uploadResult = { ok: false, text: `Refused${reason ? ` (${reason})` : ''}: ${result.problem.detail ?? result.problem.title}` };
      this._announcement = this._uploadResult.text;
      return;
    }
    const snapshot = parseSnapshot(result.data);
    this._uploadResult = { ok: true, text: `Verified and kept: ${snapshot?.collectionCount ?? 0} collections, ${snapshot?.itemCount ?? 0} items.` };
    this._announcement = this._uploadResult.text;
    if (input) input.value = '';
    await this.#reload();
  }

  #profiles(load: Extract<Load, { state: 'loaded' }>): TemplateResult {
    const accountNames = (profile: SnapshotProfile) =>
      profile.accounts
        .map((entry) => {
          const account = load.accounts.find((candidate) => candidate.id === entry.accountId);
          const name = account ? `${account.providerDisplayName}${account.displayName ? ` (${account.displayName})` : ''}` : 'an account no longer connected';
          return `${name}: ${entry.collections === 'all' ? 'every collection' : `${entry.collections.length} chosen`}`;
        })
        .join('; ');
    return html`${load.profiles.length === 0
        ? html`<p class="empty" data-testid="no-profiles">No profiles yet. A profile says which accounts and collections a snapshot keeps.</p>`
        : scrollingTable({
            headingId: 'profiles-heading',
            testId: 'profiles-table',
            columns: [{ label: 'Profile' }, { label: 'Keeps' }, { label: 'Schedule' }, { label: 'Retention' }, { label: 'Actions', hidden: true }],
            rows: load.profiles.map(
              (profile) => html`<tr data-testid="profile-row" data-profile-id=${profile.id}>
                <th scope="row">${profile.name}</th>
                <td>${accountNames(profile)}</td>
                <td>${scheduleLabel(profile.schedule)}${profile.nextRunAt ? html`<br /><span class="hint">Next: <time datetime=${profile.nextRunAt}>${formatTimestamp(profile.nextRunAt)}</time></span>` : nothing}</td>
                <td>${retentionLabel(profile.retention)}</td>
                <td class="actions">
                  <button type="button" data-action="take" aria-disabled=${this._busy === profile.id ? 'true' : 'false'} @click=${() => void this.#takeNow(profile)}>Take a snapshot now</button>
                  <button type="button" data-action="edit" aria-label=${`Edit ${profile.name}`} @click=${() => this.#edit(profile)}>Edit</button>
                  <button type="button" data-action="delete" aria-label=${`Delete the profile ${profile.name}`} @click=${() => void this.#deleteProfile(profile)}>Delete</button>
                </td>
              </tr>`,
            ),
          })}
      ${this._editing
        ? profileForm(
            { profile: this._editing.profile, accounts: load.accounts, collections: this._collections, busy: this._busy === 'profile', error: this._formError },
            (event) => void this.#saveProfile(event),
            () => (this._editing = undefined),
          )
        : html`<p><button type="button" data-action="new-profile" @click=${() => this.#edit(null)}>New profile</button></p>`}`;
  }

  #body(): TemplateResult {
    const load = this._load;
    if (load.state === 'loading') return html`<p role="status">Loading your snapshots…</p>`;
    if (load.state === 'failed') {
      return html`<opl-problem-notice .problem=${load.problem}>${accessHint(load.problem)}
        <p><button type="button" @click=${() => void this.#reload()}>Try again</button></p></opl-problem-notice>`;
    }
    const restoring = load.snapshots.find((snapshot) => snapshot.id === this._restoring);
    return html`<section aria-labelledby="profiles-heading">
        <h2 id="profiles-heading">Profiles</h2>
        ${this.#profiles(load)}
      </section>
      ${this._problem ? html`<opl-problem-notice .problem=${this._problem} data-testid="snapshots-problem"></opl-problem-notice>` : nothing}
      <section aria-labelledby="snapshots-heading">
        <h2 id="snapshots-heading">Your snapshots</h2>
        <p class="hint">Each archive is verified when it is taken and again before a restore. A partial snapshot is still usable: the collections that could be read are in it.</p>
        ${snapshotTable(load.snapshots, this._busy, { verify: (snapshot) => void this.#verify(snapshot), restore: (snapshot) => this.#openRestore(snapshot), remove: (snapshot) => void this.#remove(snapshot) })}
        ${restoring
          ? restoreForm(
              { snapshot: restoring, accounts: load.accounts, busy: this._busy === 'restore', jobId: this._restoreJob, needsAcknowledgement: this._acknowledge },
              (event) => void this.#restore(event),
              () => (this._restoring = undefined),
            )
          : nothing}
      </section>
      <opl-snapshot-history
        .snapshots=${load.snapshots}
        .accounts=${load.accounts}
        @opl-announce=${(event: CustomEvent<string>) => (this._announcement = event.detail)}
        @opl-snapshots-changed=${() => void this.#reload()}
      ></opl-snapshot-history>
      <section aria-labelledby="upload-heading">
        <h2 id="upload-heading">Upload a snapshot</h2>
        <form class="upload" data-testid="upload-form" @submit=${(event: SubmitEvent) => void this.#upload(event)}>
          <label for="upload-file">Snapshot archive made by this or another engine</label>
          <p class="hint" id="upload-hint">Up to ${formatBytes(load.maxUploadBytes)}. It is verified before anything of it is kept.</p>
          <input id="upload-file" type="file" accept=".zip,application/zip" aria-describedby="upload-hint" />
          <p><button type="submit" aria-disabled=${this._busy === 'upload' ? 'true' : 'false'}>${this._busy === 'upload' ? 'Uploading and verifying…' : 'Upload'}</button></p>
          ${this._uploadResult ? html`<p class=${this._uploadResult.ok ? 'ok' : 'field-error'} data-testid="upload-result" data-ok=${String(this._uploadResult.ok)} role="status">${this._uploadResult.text}</p>` : nothing}
        </form>
      </section>`;
  }

  override render(): TemplateResult {
    return html`
      ${this.summary ? html`<p class="summary">${this.summary}</p>` : nothing}
      ${this.#body()}
      <span class="visually-hidden" role="status" aria-live="polite" data-testid="announcement">${this._announcement}</span>
    `;
  }
}
