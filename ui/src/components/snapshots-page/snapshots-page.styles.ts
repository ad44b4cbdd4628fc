import { css } from 'lit';

/** What the Snapshots page adds to the theme's page, table and form styles: its own layout only. */
export const snapshotsPageStyles = css`
  .empty {
    color: var(--opl-color-text-muted);
  }

  /* Actions wrap under each other rather than widening the table past the page. */
  td.actions > * {
    display: inline-block;
    margin: var(--opl-space-1) var(--opl-space-2) var(--opl-space-1) 0;
    white-space: nowrap;
  }

  form.profile,
  form.upload,
  form.history,
  section.restore form {
    display: grid;
    gap: var(--opl-space-3);
    max-width: 44rem;
    margin-block-end: var(--opl-space-5);
  }

  fieldset {
    display: grid;
    gap: var(--opl-space-2);
  }

  ul.collections,
  ul.failures,
  ul.diff-changes {
    margin: 0;
    padding-inline-start: var(--opl-space-4);
  }

  .code {
    color: var(--opl-color-text-muted);
  }

  .ok {
    margin: 0;
    font-weight: 600;
  }

  .buttons button + button {
    margin-inline-start: var(--opl-space-2);
  }
`;
