import { css } from 'lit';

/** The board: status line, progress bar, counts as tiles, the review queue and the item table. */
export const migrationBoardStyles = css`
  :host {
    display: block;
  }

  .state {
    margin: 0 0 var(--opl-space-2);
  }

  progress {
    width: 100%;
    height: 0.75rem;
    margin-bottom: var(--opl-space-4);
  }

  .counts {
    display: flex;
    flex-wrap: wrap;
    gap: var(--opl-space-3);
    margin: 0 0 var(--opl-space-4);
  }

  .counts div {
    border: 1px solid var(--opl-color-border);
    border-radius: var(--opl-radius);
    padding: var(--opl-space-2) var(--opl-space-3);
    min-width: 6rem;
  }

  .counts dt {
    font-size: 0.875rem;
    color: var(--opl-color-text-muted);
  }

  .counts dd {
    margin: 0;
    font-size: 1.25rem;
    font-weight: 700;
  }

  .paused,
  .confirm {
    padding: var(--opl-space-3) var(--opl-space-4);
    margin: 0 0 var(--opl-space-4);
    border: 1px solid var(--opl-color-border);
    border-left: 4px solid var(--opl-color-danger);
    border-radius: var(--opl-radius);
  }

  .error {
    color: var(--opl-color-danger);
    font-weight: 600;
  }

  .actions {
    display: flex;
    flex-wrap: wrap;
    gap: var(--opl-space-2);
    margin-bottom: var(--opl-space-4);
  }

  section section {
    margin-top: var(--opl-space-4);
  }

  select {
    font: inherit;
    margin: 0 0 var(--opl-space-3) var(--opl-space-2);
  }

  .secondary,
  .hint {
    color: var(--opl-color-text-muted);
    font-weight: 400;
  }
`;
