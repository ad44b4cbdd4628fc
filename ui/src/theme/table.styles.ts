import { css } from 'lit';

/**
 * Data tables: a scroll container so a wide table never widens the page on a narrow screen (it is
 * focusable, so keyboard users can scroll it too), header cells set apart, rows separated by lines.
 */
export const tableStyles = css`
  .table-scroll {
    /* Positioned, so visually hidden labels inside are clipped with the table instead of widening the page. */
    position: relative;
    overflow-x: auto;
    margin: 0 0 var(--opl-space-4);
    border: 1px solid var(--opl-color-border);
    border-radius: var(--opl-radius);
  }

  table {
    width: 100%;
    border-collapse: collapse;
    font-size: 0.9375rem;
    line-height: 1.4;
  }

  th,
  td {
    text-align: left;
    vertical-align: top;
    padding: var(--opl-space-2) var(--opl-space-3);
    border-bottom: 1px solid var(--opl-color-border);
  }

  thead th {
    font-size: 0.875rem;
    font-weight: 700;
    color: var(--opl-color-text-muted);
    white-space: nowrap;
    background: var(--opl-color-bg);
  }

  tbody tr:last-child > * {
    border-bottom: none;
  }

  tbody th {
    font-weight: 600;
  }

  /* break-word, not anywhere: ids keep their full width when columns are sized, and break only if they must. */
  td,
  th {
    overflow-wrap: break-word;
  }

  .secondary {
    display: block;
    color: var(--opl-color-text-muted);
    font-size: 0.875rem;
    font-weight: 400;
  }
`;
