import { css } from 'lit';

/** Focus rings, buttons, links and helpers every component shares. */
export const sharedStyles = css`
  :host {
    font-family: var(--opl-font);
    color: var(--opl-color-text);
  }

  *,
  *::before,
  *::after {
    box-sizing: border-box;
  }

  :focus-visible {
    outline: var(--opl-focus-width) solid var(--opl-color-focus-ring);
    outline-offset: 2px;
  }

  a {
    color: var(--opl-color-accent);
    text-underline-offset: 0.15em;
  }

  code {
    font-family: var(--opl-font-mono);
    font-size: 0.9em;
  }

  button {
    font: inherit;
    font-weight: 600;
    cursor: pointer;
    border-radius: var(--opl-radius);
    padding: var(--opl-space-2) var(--opl-space-4);
    border: 1px solid var(--opl-color-control-border);
    background: var(--opl-color-surface);
    color: var(--opl-color-text);
  }

  button.primary {
    background: var(--opl-color-accent);
    border-color: var(--opl-color-accent);
    color: var(--opl-color-on-accent);
  }

  button:disabled {
    cursor: progress;
    opacity: 0.75;
  }

  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    margin: -1px;
    padding: 0;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
    border: 0;
  }

  @media (prefers-reduced-motion: reduce) {
    *,
    *::before,
    *::after {
      animation: none !important;
      transition: none !important;
      scroll-behavior: auto !important;
    }
  }
`;
