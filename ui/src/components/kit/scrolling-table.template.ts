import { html, nothing, type TemplateResult } from 'lit';

export interface TableColumn {
  readonly label: string;
  /** Right-aligned (counts, sizes). */
  readonly numeric?: boolean;
  /** Named for screen readers only (the actions column). */
  readonly hidden?: boolean;
}

/**
 * A table in a keyboard-scrollable region named by the section heading, with one header row: the
 * list tables of the pages (shares, sync rules, …) share it. Rows are the caller's `<tr>`s, their
 * first cell a row header. Styles come from `tableStyles`.
 */
export function scrollingTable(options: { readonly headingId: string; readonly testId: string; readonly columns: readonly TableColumn[]; readonly rows: readonly TemplateResult[] }): TemplateResult {
  return html`<div class="table-scroll" role="region" aria-labelledby=${options.headingId} tabindex="0">
    <table aria-labelledby=${options.headingId} data-testid=${options.testId}>
      <thead>
        <tr>
          ${options.columns.map((column) =>
            column.hidden
              ? html`<th scope="col"><span class="visually-hidden">${column.label}</span></th>`
              : html`<th scope="col" class=${column.numeric ? 'number' : ''}>${column.label}</th>`,
          )}
        </tr>
      </thead>
      <tbody>
        ${options.rows}
      </tbody>
    </table>
  </div>`;
}

/** The columns of a table of tracks (a playlist's, an import's): position, title, artist, album, duration. */
export const TRACK_COLUMNS: readonly TableColumn[] = [{ label: '#', numeric: true }, { label: 'Title' }, { label: 'Artist' }, { label: 'Album' }, { label: 'Duration', numeric: true }];

/** A list table with its section: what stays the same from one render to the next. */
export interface TableSection {
  readonly headingId: string;
  readonly title: string;
  readonly testId: string;
  readonly columns: readonly TableColumn[];
  /** Said instead of the table when there are no rows. */
  readonly empty: string;
}

/**
 * A section headed by the list's name and count, then the table of its rows, or a line saying the
 * list is empty. `notice` (a problem of the last action on the list) stands between them.
 */
export function tableSection(section: TableSection, rows: readonly TemplateResult[], notice: TemplateResult | typeof nothing = nothing): TemplateResult {
  return html`<section aria-labelledby=${section.headingId}>
    <h2 id=${section.headingId} tabindex="-1">${section.title} <span class="count">(${rows.length})</span></h2>
    ${notice}
    ${rows.length === 0 ? html`<p class="empty">${section.empty}</p>` : scrollingTable({ ...section, rows })}
  </section>`;
}
