import { html, nothing, type TemplateResult } from 'lit';
import { accountFullName, type AccountView } from '../../api/connections.ts';
import { plural } from '../../api/plural.ts';
import { formatBytes, isRunning, snapshotPath, statusLabel, verificationLabel, type Snapshot } from '../../api/snapshots.ts';
import { formatTimestamp } from '../../api/timestamp.ts';
import { hrefFor } from '../../router/route.ts';
import { scrollingTable } from '../kit/index.ts';

/**
 * The snapshot table (when, state with live progress, size, counts, partial failures,
 * verification, and the moves: verify, download, restore, delete) and the restore form of the
 * snapshot being restored.
 */

export interface SnapshotActions {
  verify(snapshot: Snapshot): void;
  restore(snapshot: Snapshot): void;
  remove(snapshot: Snapshot): void;
}

function failures(snapshot: Snapshot): TemplateResult | string {
  if (snapshot.partialFailures.length === 0) return 'None';
  return html`<ul class="failures" data-testid="partial-failures">
    ${snapshot.partialFailures.map((failure) => {
      const collection = snapshot.collections.find((entry) => entry.member === failure.member);
      return html`<li><strong>${collection?.name ?? failure.member}</strong>: ${failure.message} <span class="code">(${failure.code})</span></li>`;
    })}
  </ul>`;
}

function row(snapshot: Snapshot, busy: string | undefined, actions: SnapshotActions): TemplateResult {
  const running = isRunning(snapshot);
  const hasArchive = snapshot.archiveBytes !== null && !running;
  const when = formatTimestamp(snapshot.createdAt);
  return html`<tr data-testid="snapshot-row" data-snapshot-id=${snapshot.id} data-status=${snapshot.status}>
    <th scope="row"><time datetime=${snapshot.createdAt}>${when}</time>${snapshot.origin === 'uploaded' ? html`<br /><span class="hint">Uploaded</span>` : nothing}</th>
    <td class="state" data-testid="snapshot-status">
      ${statusLabel(snapshot)}
      ${running && snapshot.progress.total > 0 ? html`<br /><progress max=${snapshot.progress.total} value=${snapshot.progress.done} aria-label="Collections written"></progress>` : nothing}
    </td>
    <td>${formatBytes(snapshot.archiveBytes)}</td>
    <td data-testid="snapshot-counts">${snapshot.collectionCount === null ? '—' : `${plural(snapshot.collectionCount, 'collection')}, ${plural(snapshot.itemCount ?? 0, 'item')}`}</td>
    <td>${failures(snapshot)}</td>
    <td data-testid="snapshot-verification" data-reason=${snapshot.verificationReason ?? ''}>${verificationLabel(snapshot)}</td>
    <td class="actions">
      ${hasArchive
        ? html`<button type="button" data-action="verify" aria-disabled=${busy === snapshot.id ? 'true' : 'false'} @click=${() => actions.verify(snapshot)}>Verify</button>
            <a data-action="download" href=${snapshotPath(snapshot.id, 'archive')} download=${`opl-snapshot-${snapshot.id}.zip`}>Download<span class="visually-hidden"> the snapshot of ${when}</span></a>
            <button type="button" data-action="restore" @click=${() => actions.restore(snapshot)}>Restore…</button>`
        : nothing}
      ${running ? nothing : html`<button type="button" data-action="delete" aria-label=${`Delete the snapshot of ${when}`} @click=${() => actions.remove(snapshot)}>Delete</button>`}
    </td>
  </tr>`;
}

export function snapshotTable(snapshots: readonly Snapshot[], busy: string | undefined, actions: SnapshotActions): TemplateResult {
  if (snapshots.length === 0) return html`<p class="empty" data-testid="no-snapshots">No snapshots yet.</p>`;
  return scrollingTable({
    headingId: 'snapshots-heading',
    testId: 'snapshots-table',
    columns: [{ label: 'Taken' }, { label: 'State' }, { label: 'Size' }, { label: 'Contents' }, { label: 'Partial failures' }, { label: 'Verification' }, { label: 'Actions', hidden: true }],
    rows: snapshots.map((snapshot) => row(snapshot, busy, actions)),
  });
}

export interface RestoreState {
  readonly snapshot: Snapshot;
  readonly accounts: readonly AccountView[];
  readonly busy: boolean;
  /** The migration the restore created. */
  readonly jobId: string | null;
  readonly needsAcknowledgement: boolean;
}

export function restoreForm(state: RestoreState, onSubmit: (event: SubmitEvent) => void, onClose: () => void): TemplateResult {
  const restorable = state.snapshot.collections.filter((collection) => collection.status !== 'failed' && (collection.kind === 'playlist' || collection.kind === 'liked_tracks'));
  return html`<section class="restore" aria-labelledby="restore-heading" data-testid="restore-panel">
    <h3 id="restore-heading" tabindex="-1">Restore the snapshot of ${formatTimestamp(state.snapshot.createdAt)}</h3>
    <p class="hint">A restore is an ordinary migration: songs are matched on the target (with review when unsure), and restoring again writes nothing twice.</p>
    ${state.jobId
      ? html`<p role="status" data-testid="restore-started">
          The restore is running as a migration. Follow it on <a href=${hrefFor('history')} data-testid="restore-job-link" data-job-id=${state.jobId}>History (migration ${state.jobId.slice(0, 8)})</a>.
        </p>`
      : nothing}
    <form data-testid="restore-form" @submit=${onSubmit}>
      <fieldset>
        <legend>Collections</legend>
        ${restorable.length === 0
          ? html`<p class="field-error">Nothing in this snapshot can be restored.</p>`
          : restorable.map((collection) => html`<label><input type="checkbox" name="collection" value=${collection.restoreId} checked /> ${collection.name} (${plural(collection.itemCount, 'item')})</label>`)}
      </fieldset>
      <label for="restore-target">Target account</label>
      <select id="restore-target" name="target" required>
        ${state.accounts.map((account) => html`<option value=${`${account.provider}:${account.id}`}>${accountFullName(account)}</option>`)}
      </select>
      ${state.needsAcknowledgement
        ? html`<label><input type="checkbox" name="acknowledge" value="yes" /> I have read the warnings above and want to go ahead</label>`
        : nothing}
      <p class="buttons">
        <button type="submit" aria-disabled=${state.busy ? 'true' : 'false'}>${state.busy ? 'Starting…' : 'Restore'}</button>
        <button type="button" @click=${onClose}>Close</button>
      </p>
    </form>
  </section>`;
}
