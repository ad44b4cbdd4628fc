import { css } from 'lit';

/**
 * What every area page shares: the lead paragraph under the page title, and headings that receive
 * focus on navigation (no ring for the programmatic focus, a ring when reached by keyboard).
 */
export const pageStyles = css`
  :host {
    display: block;
  }

  .summary {
    font-size: 1.125rem;
    line-height: 1.5;
    margin: 0 0 var(--opl-space-6);
    color: var(--opl-color-text-muted);
    max-width: 42rem;
  }

  h1:focus,
  h2:focus {
    outline: none;
  }

  h1:focus-visible,
  h2:focus-visible {
    outline: var(--opl-focus-width) solid var(--opl-color-focus-ring);
    outline-offset: 4px;
    border-radius: 2px;
  }
`;
