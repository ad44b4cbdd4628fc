import { css } from 'lit';

export const pluginsPageStyles = css`
  .hint {
    color: var(--opl-color-text-muted);
    font-size: 0.9375rem;
  }

  .actions + opl-problem-notice {
    margin: var(--opl-space-4) 0 0;
  }

  .count {
    color: var(--opl-color-text-muted);
    font-weight: 400;
  }

  .loading {
    color: var(--opl-color-text-muted);
  }

  /* Words, weight and a border, so "unsigned" does not rely on colour alone. */
  .badge-warning {
    display: inline-block;
    padding: 0 var(--opl-space-2);
    border: 1px solid var(--opl-color-danger);
    border-radius: var(--opl-radius);
    background: var(--opl-color-danger-soft);
    color: var(--opl-color-danger);
    font-size: 0.8125rem;
    font-weight: 700;
    letter-spacing: 0.01em;
  }

  .signed {
    color: var(--opl-color-status-ready);
    font-weight: 600;
  }

  .signed::before {
    content: '✓ ' / '';
  }

  .reason-label {
    font-weight: 600;
  }

  .actions-cell {
    text-align: right;
    white-space: nowrap;
  }

  td button {
    padding: var(--opl-space-1) var(--opl-space-3);
  }

  .disclosure {
    display: inline-flex;
    align-items: center;
    gap: var(--opl-space-2);
  }

  /* A triangle that points right when closed and down when open. */
  .chevron {
    width: 0;
    height: 0;
    border-top: 0.3rem solid transparent;
    border-bottom: 0.3rem solid transparent;
    border-left: 0.4rem solid currentColor;
    transition: transform 120ms ease;
  }

  .disclosure[aria-expanded='true'] .chevron {
    transform: rotate(90deg);
  }

  .details-row > td {
    background: var(--opl-color-bg);
  }

  .details {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(16rem, 1fr));
    gap: var(--opl-space-4) var(--opl-space-6);
    padding: var(--opl-space-2) 0;
  }

  .details h3 {
    font-size: 0.9375rem;
    margin: 0 0 var(--opl-space-2);
  }

  .details p {
    margin: 0;
  }

  .grants,
  .capabilities {
    margin: 0;
    padding: 0;
    list-style: none;
    display: grid;
    gap: var(--opl-space-2);
  }

  .grants .reason {
    display: block;
    color: var(--opl-color-text-muted);
  }

  .capabilities {
    display: flex;
    flex-wrap: wrap;
  }

  .capabilities li {
    padding: 0 var(--opl-space-2);
    border: 1px solid var(--opl-color-border);
    border-radius: var(--opl-radius);
    background: var(--opl-color-surface);
  }

  .warning {
    margin-top: var(--opl-space-4);
    padding: var(--opl-space-3) var(--opl-space-4);
    border: 1px solid var(--opl-color-danger);
    border-left-width: 4px;
    border-radius: var(--opl-radius);
    background: var(--opl-color-danger-soft);
    overflow-wrap: anywhere;
  }

  .warning strong {
    display: block;
    color: var(--opl-color-danger);
  }

  /* The danger-soft background needs the body text colour, not muted text, for contrast. */
  .warning .explain {
    color: var(--opl-color-text);
  }

  .token-form {
    display: grid;
    gap: var(--opl-space-3);
    max-width: 26rem;
  }

  .form-actions {
    display: flex;
    gap: var(--opl-space-3);
  }
`;
