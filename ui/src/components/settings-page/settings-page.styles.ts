import { css } from 'lit';

export const settingsPageStyles = css`
  section {
    max-width: 42rem;
    background: var(--opl-color-surface);
    border: 1px solid var(--opl-color-border);
    border-radius: var(--opl-radius);
    padding: var(--opl-space-6);
    margin-bottom: var(--opl-space-6);
  }

  h2 {
    font-size: 1.125rem;
    margin: 0 0 var(--opl-space-4);
  }

  dl {
    display: grid;
    grid-template-columns: minmax(9rem, max-content) 1fr;
    gap: var(--opl-space-3) var(--opl-space-6);
    margin: 0;
  }

  dt {
    font-weight: 600;
  }

  dd {
    margin: 0;
  }

  .explain {
    display: block;
    color: var(--opl-color-text-muted);
    font-size: 0.9375rem;
    margin-top: var(--opl-space-1);
  }

  p {
    line-height: 1.5;
    margin: 0 0 var(--opl-space-4);
  }

  .actions {
    margin-top: var(--opl-space-6);
    display: flex;
    gap: var(--opl-space-3);
    align-items: center;
  }

  opl-problem-notice {
    margin-top: var(--opl-space-4);
  }

  @media (max-width: 30rem) {
    dl {
      grid-template-columns: 1fr;
      gap: var(--opl-space-1);
    }

    dd + dt {
      margin-top: var(--opl-space-3);
    }
  }
`;
