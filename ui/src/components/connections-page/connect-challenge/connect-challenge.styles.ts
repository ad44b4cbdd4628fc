import { css } from 'lit';

/** A challenge card inside a provider or account: the code to enter elsewhere, or the sign-in form. */
export const connectChallengeStyles = css`
  :host {
    display: block;
  }

  .challenge {
    display: grid;
    gap: var(--opl-space-3);
    padding: var(--opl-space-4);
    border: 1px solid var(--opl-color-border);
    border-left: 4px solid var(--opl-color-accent);
    border-radius: var(--opl-radius);
    background: var(--opl-color-notice-soft);
  }

  h4 {
    margin: 0;
    font-size: 1rem;
    display: flex;
    flex-wrap: wrap;
    gap: var(--opl-space-2);
    align-items: center;
  }

  h4:focus {
    outline: none;
  }

  h4:focus-visible {
    outline: var(--opl-focus-width) solid var(--opl-color-focus-ring);
    outline-offset: 4px;
  }

  p {
    margin: 0;
    line-height: 1.5;
  }

  /* Large, spaced and monospaced: read aloud or typed on a TV remote, one character at a time. */
  .user-code {
    font-family: var(--opl-font-mono);
    font-size: 1.75rem;
    font-weight: 700;
    letter-spacing: 0.15em;
    padding: var(--opl-space-2) var(--opl-space-4);
    border: 2px solid var(--opl-color-control-border);
    border-radius: var(--opl-radius);
    background: var(--opl-color-surface);
    user-select: all;
  }

  .code-row,
  .row,
  .input-row {
    display: flex;
    flex-wrap: wrap;
    gap: var(--opl-space-3);
    align-items: center;
  }

  .waiting {
    display: flex;
    align-items: center;
    gap: var(--opl-space-2);
    font-weight: 600;
  }

  /* The notice background is soft: body text colour keeps hints readable on it. */
  .hint {
    color: var(--opl-color-text);
  }

  form {
    display: grid;
    gap: var(--opl-space-3);
  }

  .field {
    display: grid;
    gap: var(--opl-space-1);
  }

  .input-row input {
    flex: 1 1 16rem;
    min-width: 0;
  }

  .badge-demo {
    display: inline-block;
    padding: 0 var(--opl-space-2);
    border: 1px solid var(--opl-color-accent);
    border-radius: var(--opl-radius);
    background: var(--opl-color-accent-soft);
    color: var(--opl-color-accent);
    font-size: 0.8125rem;
    font-weight: 700;
  }

  .next-steps {
    margin: 0 0 var(--opl-space-2);
    padding-left: 1.25rem;
  }

  .failure-more > :last-child {
    margin-bottom: 0;
  }

  button[aria-disabled='true'] {
    cursor: progress;
    opacity: 0.75;
  }
`;
