import { html, nothing, type TemplateResult } from 'lit';
import { EXPORT_GROUP_KEY, groupHandover, ORGANIZER_GROUP_KEY } from '../../api/library-group-actions.ts';
import { syncableJob, type WorkspaceGroup } from '../../api/library-workspace.ts';
import { KEEP_IN_SYNC_KEY } from '../../api/syncs.ts';
import { hrefFor } from '../../router/route.ts';

/**
 * The actions of one Library group, in its heading row: keep it in sync (when a migration links
 * it and no rule does yet), export it, and look for its duplicates in the Organizer. Each hands
 * the group to the page that does the work; nothing is done from here.
 */
export function groupActions(group: WorkspaceGroup): TemplateResult {
  const jobId = syncableJob(group);
  const open = (key: string, value: string, area: 'sync' | 'export' | 'organizer') => {
    sessionStorage.setItem(key, value);
    location.hash = hrefFor(area);
  };
  return html`<span class="group-actions">
    ${jobId ? html`<button type="button" data-action="keep-in-sync" @click=${() => open(KEEP_IN_SYNC_KEY, jobId, 'sync')}>Keep in sync…</button>` : nothing}
    <button type="button" data-action="export-group" aria-label=${`Export ${group.name}…`} @click=${() => open(EXPORT_GROUP_KEY, JSON.stringify(groupHandover(group)), 'export')}>Export…</button>
    <button type="button" data-action="group-duplicates" aria-label=${`Duplicates of ${group.name} in the Organizer…`} @click=${() => open(ORGANIZER_GROUP_KEY, JSON.stringify(groupHandover(group)), 'organizer')}>
      Duplicates…
    </button>
  </span>`;
}
