import { css } from 'lit';

/** The wizard's steps: target choices, warnings and refusals (the source picker styles itself). */
export const migratePageStyles = css`
  :host {
    display: block;
  }

  .warnings,
  .refusal {
    padding: var(--opl-space-3) var(--opl-space-4);
    margin: var(--opl-space-4) 0;
    border: 1px solid var(--opl-color-border);
    border-left: 4px solid var(--opl-color-danger);
    border-radius: var(--opl-radius);
  }

  .warnings ul,
  .refusal ul {
    margin: 0 0 var(--opl-space-3);
    padding-left: var(--opl-space-6);
    line-height: 1.5;
  }

  .hint {
    margin: var(--opl-space-2) 0 0;
    color: var(--opl-color-text-muted);
  }
`;
