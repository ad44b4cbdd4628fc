import { css } from 'lit';

/**
 * A `<dl>` of facts (label, value, optional explanation) laid out as two columns that stack on
 * narrow screens; the settings and plugins pages describe the instance this way.
 */
export const factsStyles = css`
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
    overflow-wrap: anywhere;
  }

  .explain {
    display: block;
    color: var(--opl-color-text-muted);
    font-size: 0.9375rem;
    margin-top: var(--opl-space-1);
  }

  .actions {
    margin-top: var(--opl-space-6);
    display: flex;
    flex-wrap: wrap;
    gap: var(--opl-space-3);
    align-items: center;
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
