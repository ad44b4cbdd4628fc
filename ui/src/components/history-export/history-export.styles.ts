import { css } from 'lit';

/** The format select and button in one row, the outcome below. */
export const historyExportStyles = css`
  :host {
    display: block;
  }

  .controls {
    display: flex;
    flex-wrap: wrap;
    gap: var(--opl-space-2) var(--opl-space-3);
    align-items: center;
  }

  .controls .hint {
    flex-basis: 100%;
  }

  opl-export-result,
  opl-problem-notice {
    margin-top: var(--opl-space-4);
  }

  .next-steps {
    margin: var(--opl-space-2) 0;
    padding-left: var(--opl-space-6);
    line-height: 1.5;
  }

  .next-action {
    margin: var(--opl-space-2) 0 0;
  }
`;
