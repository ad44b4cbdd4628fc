import { css } from 'lit';

/**
 * A page section drawn as a card with its heading, lead text and a note, plus buttons that are
 * busy. Busy buttons use aria-disabled rather than disabled so they keep keyboard focus.
 */
export const panelStyles = css`
  section {
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

  h3 {
    font-size: 1rem;
    margin: 0 0 var(--opl-space-3);
  }

  p {
    line-height: 1.5;
    margin: 0 0 var(--opl-space-4);
  }

  .note {
    padding: var(--opl-space-3) var(--opl-space-4);
    background: var(--opl-color-notice-soft);
    border: 1px solid var(--opl-color-border);
    border-left: 4px solid var(--opl-color-accent);
    border-radius: var(--opl-radius);
  }

  .note strong {
    display: block;
  }

  .empty {
    color: var(--opl-color-text-muted);
  }

  .access-hint {
    margin: var(--opl-space-3) 0 0;
  }

  opl-problem-notice {
    margin: 0 0 var(--opl-space-4);
  }

  button[aria-disabled='true'] {
    cursor: progress;
    opacity: 0.75;
  }
`;
