import { html, type TemplateResult } from 'lit';

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
