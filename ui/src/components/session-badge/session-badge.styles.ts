import { css } from 'lit';

export const sessionBadgeStyles = css`
  :host {
    display: inline-flex;
    align-items: center;
    gap: var(--opl-space-2);
  }

  .who {
    font-weight: 600;
  }

  .role {
    color: var(--opl-color-text-muted);
    font-size: 0.9em;
  }

  button {
    padding: var(--opl-space-1) var(--opl-space-3);
  }
`;
