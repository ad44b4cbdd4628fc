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
`;
