import { html, nothing, type TemplateResult } from 'lit';
import { isFinished, type OrganizerJob } from '../../api/organizer.ts';
import { hrefFor } from '../../router/route.ts';

/**
 * The organizer job as it runs and after: each item's outcome with its notes, what to do next
 * (reconnect, retry the failed items, undo a song removal).
 */
export function organizerJobPanel(job: OrganizerJob, actions: { retry(): void; undo(): void }): TemplateResult {
  const finished = isFinished(job);
  return html`<section aria-labelledby="job-heading" data-testid="organizer-job" data-status=${job.status}>
    <h2 id="job-heading" tabindex="-1">${job.action === 'restore_tracks' ? 'Undo' : 'Job'}: ${job.status}</h2>
    <p role="status">${job.counts.succeeded} of ${job.counts.items} done${job.counts.failed ? `, ${job.counts.failed} failed` : ''}.</p>
    ${job.restore_order === 'appended'
      ? html`<p class="note" data-testid="order-not-restored">This service can only add songs at the end of a playlist: the removed songs were added back there, not at their old places.</p>`
      : nothing}
    <ul class="items">
      ${job.items.map(
        (item) => html`<li data-status=${item.status}>
          <strong>${item.playlist_name ?? 'Playlist'}</strong>: ${item.status}${item.error ? html` — ${item.error}` : nothing}
          ${item.notes.length > 0 ? html`<ul class="item-notes">${item.notes.map((note) => html`<li class="item-note">${note}</li>`)}</ul>` : nothing}
        </li>`,
      )}
    </ul>
    ${finished && job.reconnect_required
      ? html`<p class="note" data-testid="reconnect-needed">The account's connection must be renewed: <a href=${hrefFor('connections')}>reconnect it on Connections</a>, then come back and retry.</p>`
      : nothing}
    <p class="actions">
      ${finished && job.counts.retryable > 0 ? html`<button type="button" @click=${() => actions.retry()}>Retry failed items</button>` : nothing}
      ${finished && job.action === 'remove_tracks' && job.counts.succeeded > 0 ? html`<button type="button" @click=${() => actions.undo()}>Undo: put the removed songs back</button>` : nothing}
    </p>
  </section>`;
}
