import { css } from 'lit';

/** The migrations table, the totals side by side on wide screens. */
export const historyPageStyles = css`
  :host {
    display: block;
  }

  .heading-row {
    display: flex;
    gap: var(--opl-space-3);
    align-items: center;
    justify-content: space-between;
    margin-bottom: var(--opl-space-4);
  }

  .heading-row h2 {
    margin: 0;
  }

  .charts {
    display: flex;
    flex-wrap: wrap;
    gap: var(--opl-space-6);
  }

  .charts opl-status-chart {
    flex: 1 1 18rem;
  }

  tr[aria-current='true'] > * {
    background: var(--opl-color-notice-soft);
  }
`;
