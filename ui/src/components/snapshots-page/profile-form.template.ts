import { html, nothing, type TemplateResult } from 'lit';
import { accountFullName, type AccountView } from '../../api/connections.ts';
import type { PlaylistSummary } from '../../api/playlists.ts';
import { WEEKDAYS, type ProfileAccount, type ProfileInput, type SnapshotProfile, type SnapshotSchedule } from '../../api/snapshots.ts';

/**
 * The form of a snapshot profile (new or edited): which connected accounts, and of each every
 * playlist or chosen collections; a schedule; a retention policy. Read back with `readProfileForm`
 * from the form's own fields, so the page keeps no copy of what is being typed.
 */

export interface ProfileFormState {
  readonly profile: SnapshotProfile | null;
  readonly accounts: readonly AccountView[];
  /** Each account's collections, once read (`liked` is liked tracks). */
  readonly collections: ReadonlyMap<string, readonly PlaylistSummary[] | 'loading' | 'failed'>;
  readonly busy: boolean;
  readonly error: string | null;
}

const LIKED = 'liked';

function collectionId(playlist: PlaylistSummary): string | null {
  return playlist.kind === 'LIKED_TRACKS' ? LIKED : playlist.id;
}

/** A listed collection as a choice; one the service gives no id cannot be chosen by id. */
function choice(playlist: PlaylistSummary): { id: string; name: string }[] {
  const id = collectionId(playlist);
  return id ? [{ id, name: playlist.name }] : [];
}

function accountFieldset(state: ProfileFormState, account: AccountView): TemplateResult {
  const chosen = state.profile?.accounts.find((entry) => entry.accountId === account.id);
  const included = state.profile ? chosen !== undefined : true;
  const scope = chosen && chosen.collections !== 'all' ? 'chosen' : 'all';
  const picked = new Set(chosen && chosen.collections !== 'all' ? chosen.collections : []);
  const listed = state.collections.get(account.id);
  const id = `profile-account-${account.id}`;
  return html`<fieldset data-testid="profile-account" data-account-id=${account.id}>
    <legend><label><input type="checkbox" name="account" value=${account.id} .checked=${included} /> ${accountFullName(account)}</label></legend>
    <label><input type="radio" name=${`scope-${account.id}`} value="all" .checked=${scope === 'all'} aria-describedby=${`${id}-hint`} /> Every collection it has when the snapshot is taken</label>
    <label><input type="radio" name=${`scope-${account.id}`} value="chosen" .checked=${scope === 'chosen'} /> Only these collections:</label>
    <p class="hint" id=${`${id}-hint`}>Its playlists, and its liked songs where the service has them.</p>
    ${listed === 'loading' || listed === undefined
      ? html`<p role="status">Reading its playlists…</p>`
      : listed === 'failed'
        ? html`<p class="field-error">Its playlists could not be read; choose “Every collection” or try again later.</p>`
        : html`<ul class="collections">
            ${listed.flatMap(choice).map(
              (collection) => html`<li><label><input type="checkbox" name=${`collection-${account.id}`} value=${collection.id} .checked=${picked.has(collection.id)} /> ${collection.name}</label></li>`,
            )}
          </ul>`}
  </fieldset>`;
}

export function profileForm(state: ProfileFormState, onSubmit: (event: SubmitEvent) => void, onCancel: () => void): TemplateResult {
  const profile = state.profile;
  const schedule = profile?.schedule ?? null;
  const zone = schedule?.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const heading = profile ? `Edit “${profile.name}”` : 'New profile';
  return html`<form class="profile" data-testid="profile-form" aria-labelledby="profile-form-heading" @submit=${onSubmit}>
    <h3 id="profile-form-heading" tabindex="-1">${heading}</h3>
    <div class="field">
      <label for="profile-name">Name</label>
      <input id="profile-name" name="name" .value=${profile?.name ?? ''} required maxlength="200" aria-invalid=${state.error ? 'true' : 'false'} aria-describedby=${state.error ? 'profile-error' : nothing} />
    </div>
    ${state.accounts.length === 0 ? html`<p class="field-error">Connect an account on Connections first: a profile keeps collections of connected accounts.</p>` : state.accounts.map((account) => accountFieldset(state, account))}
    <fieldset>
      <legend>Schedule</legend>
      <label for="profile-schedule">Take snapshots</label>
      <select id="profile-schedule" name="schedule">
        <option value="none" ?selected=${!schedule}>Only when I ask</option>
        <option value="daily" ?selected=${schedule?.kind === 'daily'}>Every day</option>
        <option value="weekly" ?selected=${schedule?.kind === 'weekly'}>Every week</option>
      </select>
      <label for="profile-weekday">Day of the week (weekly)</label>
      <select id="profile-weekday" name="weekday">
        ${WEEKDAYS.map((day) => html`<option value=${day} ?selected=${schedule?.kind === 'weekly' ? schedule.weekday === day : day === 'sunday'}>${day.charAt(0).toUpperCase()}${day.slice(1)}</option>`)}
      </select>
      <label for="profile-at">Time</label>
      <input id="profile-at" name="at" type="time" .value=${schedule?.at ?? '03:00'} />
      <label for="profile-tz">Time zone</label>
      <input id="profile-tz" name="tz" .value=${zone} />
    </fieldset>
    <fieldset>
      <legend>Retention</legend>
      <p class="hint" id="retention-hint">Older snapshots of this profile are deleted by the schedule's evaluation. The newest good snapshot is always kept. Leave both empty to keep all.</p>
      <label for="profile-keep-last">Keep the newest (snapshots)</label>
      <input id="profile-keep-last" name="keep-last" type="number" min="1" max="10000" .value=${profile?.retention?.keepLast?.toString() ?? ''} aria-describedby="retention-hint" />
      <label for="profile-keep-days">Keep none older than (days)</label>
      <input id="profile-keep-days" name="keep-days" type="number" min="1" max="36500" .value=${profile?.retention?.keepDays?.toString() ?? ''} aria-describedby="retention-hint" />
    </fieldset>
    ${state.error ? html`<p class="field-error" id="profile-error" role="alert">${state.error}</p>` : nothing}
    <p class="buttons">
      <button type="submit" aria-disabled=${state.busy ? 'true' : 'false'}>${state.busy ? 'Saving…' : profile ? 'Save profile' : 'Create profile'}</button>
      <button type="button" @click=${onCancel}>Cancel</button>
    </p>
  </form>`;
}

/** The profile the form describes, or the sentence saying what is missing. */
export function readProfileForm(form: HTMLFormElement): ProfileInput | string {
  const data = new FormData(form);
  const value = (name: string) => {
    const entry = data.get(name);
    return typeof entry === 'string' ? entry.trim() : '';
  };
  const name = value('name');
  if (!name) return 'Give the profile a name.';
  const accounts: ProfileAccount[] = [];
  for (const accountId of data.getAll('account').filter((entry): entry is string => typeof entry === 'string')) {
    if (value(`scope-${accountId}`) === 'chosen') {
      const chosen = data.getAll(`collection-${accountId}`).filter((entry): entry is string => typeof entry === 'string');
      if (chosen.length === 0) return 'Choose at least one collection of each chosen account, or “Every collection”.';
      accounts.push({ accountId, collections: chosen });
    } else {
      accounts.push({ accountId, collections: 'all' });
    }
  }
  if (accounts.length === 0) return 'Include at least one account.';
  const kind = value('schedule');
  const at = value('at') || '03:00';
  const timeZone = value('tz') || 'UTC';
  const schedule: SnapshotSchedule | null = kind === 'daily' ? { kind: 'daily', at, timeZone } : kind === 'weekly' ? { kind: 'weekly', weekday: value('weekday') || 'sunday', at, timeZone } : null;
  const number = (field: string) => (value(field) === '' ? null : Math.max(1, Math.floor(Number(value(field)))));
  const keepLast = number('keep-last');
  const keepDays = number('keep-days');
  return { name, accounts, schedule, retention: keepLast === null && keepDays === null ? null : { keepLast, keepDays } };
}
