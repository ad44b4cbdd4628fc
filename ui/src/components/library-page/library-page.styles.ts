import { css } from 'lit';

/** The Library page: account bar, filters, grouped table with coverage bars, and the diff. */
export const libraryPageStyles = css`
  .accounts {
    display: flex;
    flex-wrap: wrap;
    gap: var(--opl-space-3);
    list-style: none;
    padding: 0;
    margin: 0 0 var(--opl-space-4);
  }

  .accounts li {
    display: grid;
    gap: var(--opl-space-1);
    padding: var(--opl-space-3);
    border: 1px solid var(--opl-color-border);
    border-radius: var(--opl-radius);
    background: var(--opl-color-surface);
  }

  /* The filters and the toolbar: controls in a row that wraps on a narrow screen. */
  .filters,
  .toolbar {
    display: flex;
    flex-wrap: wrap;
  }

  .filters {
    gap: var(--opl-space-3);
    align-items: end;
    margin: 0 0 var(--opl-space-4);
  }

  .filters div {
    display: grid;
    gap: var(--opl-space-1);
  }

  /* Off-screen groups skip layout and paint: a library of thousands of playlists stays responsive. */
  tbody.group {
    content-visibility: auto;
    contain-intrinsic-size: auto 8rem;
  }

  /* A large library: the table scrolls in its own box and renders only the groups it shows (measured exactly, so no content-visibility estimate). */
  .table-scroll.virtual {
    max-height: 70vh;
    overflow-y: auto;
  }

  .table-scroll.virtual tbody.group {
    content-visibility: visible;
  }

  tbody.spacer td {
    padding: 0;
    border: 0;
  }

  tr.group-head th {
    background: var(--opl-color-accent-soft);
  }

  .reasons {
    display: block;
    font-weight: 400;
    color: var(--opl-color-text-muted);
    font-size: 0.875rem;
  }

  .group-actions {
    display: inline-flex;
    flex-wrap: wrap;
    gap: var(--opl-space-2);
    margin-inline-start: var(--opl-space-2);
    font-weight: 400;
  }

  .coverage {
    display: grid;
    gap: var(--opl-space-1);
    min-width: 9rem;
  }

  meter {
    width: 100%;
    height: 0.75rem;
  }

  .toolbar {
    gap: var(--opl-space-2);
    align-items: center;
    margin: 0 0 var(--opl-space-3);
  }

  td.actions {
    white-space: nowrap;
  }

  .state[data-state='partially_migrated'],
  .state[data-state='not_migrated'] {
    font-weight: 600;
  }

  .diff {
    margin-block: var(--opl-space-4);
    padding: var(--opl-space-4);
    border: 1px solid var(--opl-color-border);
    border-radius: var(--opl-radius);
  }

  .diff-columns {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(16rem, 1fr));
    gap: var(--opl-space-4);
  }

  .diff-list {
    margin: 0 0 var(--opl-space-3);
    padding-inline-start: var(--opl-space-6);
  }

  .secondary-inline {
    color: var(--opl-color-text-muted);
  }

  .empty {
    color: var(--opl-color-text-muted);
  }
`;
