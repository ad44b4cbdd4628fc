import { css } from 'lit';

export const sharesPageStyles = css`
  .status {
    font-weight: 600;
  }

  .status[data-status='revoked'],
  .status[data-status='expired'] {
    color: var(--opl-color-text-muted);
  }

  .empty {
    color: var(--opl-color-text-muted);
  }

  td.actions {
    white-space: nowrap;
  }

  .loading {
    display: flex;
    align-items: center;
    gap: var(--opl-space-2);
  }
`;
