import { html, nothing, type TemplateResult } from 'lit';
import { copyLabel, type GroupCopy, type GroupHandover } from '../../api/library-group-actions.ts';
import type { DuplicatePair } from '../../api/organizer.ts';

/**
 * The duplicate playlists section of the Organizer. Opened from a Library group ("Duplicates…"),
 * it shows only the pairs holding one of that group's playlists on the chosen account, says so,
 * and offers every pair again.
 */

/**
 * The group's copy the Organizer opens on: of the connected accounts given (an import has no
 * duplicates to tidy), the one holding most of its playlists — a rerun's second copy is a
 * duplicate there. Undefined when no copy is on one of them.
 */
export function focusCopy(group: GroupHandover, accountIds: readonly string[]): GroupCopy | undefined {
  return group.copies.filter((copy) => accountIds.includes(copy.accountId)).sort((x, y) => y.playlistIds.length - x.playlistIds.length)[0];
}

export interface DuplicatesView {
  readonly pairs: readonly DuplicatePair[] | undefined;
  readonly busy: boolean;
  /** The Library group the page was opened for, and whether the user asked for every pair anyway. */
  readonly fromLibrary: GroupHandover | undefined;
  readonly showAll: boolean;
  readonly accountId: string;
}

export function duplicatesSection(view: DuplicatesView, actions: { readonly scan: () => void; readonly showAll: () => void }): TemplateResult {
  const copy = view.fromLibrary?.copies.find((candidate) => candidate.accountId === view.accountId);
  const focused = copy !== undefined && !view.showAll;
  const ids = new Set(copy?.playlistIds ?? []);
  const pairs = focused ? view.pairs?.filter((pair) => pair.playlists.some((playlist) => ids.has(playlist.id))) : view.pairs;
  return html`<section aria-labelledby="duplicates-heading">
    <h2 id="duplicates-heading">Duplicate playlists</h2>
    <p>Only pointed out, never changed: a pair needs the same name, the same owner and at least half of the smaller playlist's songs.</p>
    ${focused
      ? html`<p data-testid="library-focus">
          From the Library: duplicates of “<bdi>${view.fromLibrary!.groupName}</bdi>” on ${copyLabel(copy)} only.
          <button type="button" data-action="show-all-pairs" @click=${actions.showAll}>Show every duplicate pair</button>
        </p>`
      : nothing}
    <button type="button" ?disabled=${view.busy} @click=${actions.scan}>Find duplicate playlists</button>
    ${pairs === undefined
      ? nothing
      : pairs.length === 0
        ? html`<p data-testid="no-duplicates">${focused ? 'No duplicate of this playlist found on this account.' : 'No duplicate playlists found.'}</p>`
        : html`<ul data-testid="duplicate-pairs">
            ${pairs.map((pair) => html`<li>${pair.playlists.map((playlist) => playlist.name).join(' and ')} (${Math.round(pair.overlap * 100)}% overlap): ${pair.evidence.join(' ')}</li>`)}
          </ul>`}
  </section>`;
}
