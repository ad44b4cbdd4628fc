import { html, nothing, type TemplateResult } from 'lit';
import { entityTypeLabel, itemStatusLabel, type MigrationItem } from '../../api/migrations.ts';

/**
 * One migration item as a table row, as the live board and History list them: what it is, its
 * type, status and reason in words. History adds the collection it came from (`withCollection`).
 */
export function migrationItemRow(item: MigrationItem, withCollection: boolean): TemplateResult {
  return html`<tr data-status=${item.status}>
    <th scope="row">${item.title}<span class="secondary"> — ${item.artist}</span></th>
    ${withCollection ? html`<td>${item.sourcePlaylistName ?? ''}</td>` : nothing}
    <td>${entityTypeLabel(item.entityType)}</td>
    <td>${itemStatusLabel(item.status)}</td>
    <td>${item.reason ?? ''}</td>
  </tr>`;
}
