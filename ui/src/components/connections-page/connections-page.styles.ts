import { css } from 'lit';

/** What the Connections page adds: provider cards with their connect form, account cards, the demo banner and the dialog. */
export const connectionsPageStyles = css`
  .loading {
    color: var(--opl-color-text-muted);
  }

  .count {
    color: var(--opl-color-text-muted);
    font-weight: 400;
  }

  .hint {
    color: var(--opl-color-text-muted);
    font-size: 0.9375rem;
  }

  .optional {
    font-weight: 400;
    color: var(--opl-color-text-muted);
  }

  /* Words first ("Demo"), then colour and a border: the state never relies on colour alone. */
  .demo-banner {
    padding: var(--opl-space-3) var(--opl-space-4);
    border: 1px solid var(--opl-color-accent);
    border-left-width: 4px;
    border-radius: var(--opl-radius);
    background: var(--opl-color-accent-soft);
    margin: 0 0 var(--opl-space-6);
    line-height: 1.5;
  }

  .demo-banner strong {
    margin-right: var(--opl-space-2);
  }

  .badge {
    display: inline-block;
    padding: 0 var(--opl-space-2);
    border: 1px solid var(--opl-color-control-border);
    border-radius: var(--opl-radius);
    font-size: 0.8125rem;
    font-weight: 700;
    color: var(--opl-color-text);
    vertical-align: middle;
  }

  .badge-demo {
    border-color: var(--opl-color-accent);
    background: var(--opl-color-accent-soft);
    color: var(--opl-color-accent);
  }

  .providers,
  .accounts,
  .scopes {
    list-style: none;
    margin: 0;
    padding: 0;
  }

  .providers {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(17rem, 1fr));
    gap: var(--opl-space-4);
    /* A card with an open challenge grows alone; its neighbours keep their own height. */
    align-items: start;
  }

  .provider,
  .account {
    display: grid;
    align-content: start;
    gap: var(--opl-space-3);
    min-width: 0;
    padding: var(--opl-space-4);
    border: 1px solid var(--opl-color-border);
    border-radius: var(--opl-radius);
    background: var(--opl-color-surface);
  }

  .provider h3,
  .account h4 {
    display: flex;
    flex-wrap: wrap;
    gap: var(--opl-space-2);
    align-items: center;
    margin: 0;
  }

  .account h4 {
    font-size: 1rem;
  }

  .account h4:focus,
  #outcome:focus {
    outline: none;
  }

  .account h4:focus-visible,
  #outcome:focus-visible {
    outline: var(--opl-focus-width) solid var(--opl-color-focus-ring);
    outline-offset: 4px;
  }

  .provider p,
  .account p {
    margin: 0;
  }

  .provider-warning {
    padding: var(--opl-space-2) var(--opl-space-3);
    border-left: 4px solid var(--opl-color-status-degraded);
    background: var(--opl-color-bg);
  }

  .connect-form,
  .label-form,
  .field {
    display: grid;
    gap: var(--opl-space-2);
  }

  fieldset {
    border: 1px solid var(--opl-color-border);
    border-radius: var(--opl-radius);
    padding: var(--opl-space-2) var(--opl-space-3) var(--opl-space-3);
    margin: 0;
    display: grid;
    gap: var(--opl-space-2);
  }

  legend {
    font-weight: 600;
    padding: 0 var(--opl-space-1);
  }

  label.choice {
    display: flex;
    gap: var(--opl-space-2);
    align-items: baseline;
    font-weight: 400;
  }

  .row {
    display: flex;
    flex-wrap: wrap;
    gap: var(--opl-space-3);
    align-items: center;
  }

  /* Not connectable: still focusable (aria-disabled) so the reason is heard; dashed and muted so it reads as unavailable. */
  button.unavailable {
    cursor: not-allowed;
    border-style: dashed;
    border-color: var(--opl-color-control-border);
    background: var(--opl-color-bg);
    color: var(--opl-color-text-muted);
  }

  .unavailable {
    font-weight: 600;
  }

  .account-group + .account-group {
    margin-top: var(--opl-space-6);
  }

  .accounts {
    display: grid;
    gap: var(--opl-space-4);
  }

  .account.needs-reconnect {
    border-color: var(--opl-color-danger);
    border-left-width: 4px;
  }

  .reconnect-note {
    display: grid;
    gap: var(--opl-space-2);
    justify-items: start;
    padding: var(--opl-space-3) var(--opl-space-4);
    border-radius: var(--opl-radius);
    background: var(--opl-color-danger-soft);
  }

  .status {
    font-weight: 700;
  }

  .status-ok {
    color: var(--opl-color-status-ready);
  }

  .status-ok::before {
    content: '✓ ' / '';
  }

  .status-expired {
    color: var(--opl-color-danger);
  }

  .status-expired::before {
    content: '! ' / '';
  }

  .scopes {
    display: flex;
    flex-wrap: wrap;
    gap: var(--opl-space-1) var(--opl-space-2);
  }

  .scopes li {
    padding: 0 var(--opl-space-2);
    border: 1px solid var(--opl-color-border);
    border-radius: var(--opl-radius);
  }

  .account .actions {
    margin-top: 0;
  }

  button.danger {
    color: var(--opl-color-danger);
    border-color: var(--opl-color-danger);
  }

  button.danger-solid {
    background: var(--opl-color-danger);
    border-color: var(--opl-color-danger);
    color: var(--opl-color-surface);
  }

  .test-result {
    padding: var(--opl-space-2) var(--opl-space-3);
    border-left: 4px solid var(--opl-color-status-ready);
    background: var(--opl-color-bg);
  }

  .test-result.failed {
    border-left-color: var(--opl-color-danger);
  }

  .test-result .hint {
    display: block;
  }

  .outcome-ok {
    padding: var(--opl-space-3) var(--opl-space-4);
    border: 1px solid var(--opl-color-status-ready);
    border-left-width: 4px;
    border-radius: var(--opl-radius);
    background: var(--opl-color-surface);
    font-weight: 600;
    margin: 0 0 var(--opl-space-6);
  }

  #outcome {
    margin: 0 0 var(--opl-space-6);
  }

  .next-steps {
    margin: 0 0 var(--opl-space-2);
    padding-left: 1.25rem;
  }

  .failure-more {
    display: grid;
    gap: var(--opl-space-2);
    justify-items: start;
  }

  .failure-more > * {
    margin: 0;
  }

  dialog {
    max-width: min(32rem, calc(100vw - 2rem));
    padding: var(--opl-space-6);
    border: 1px solid var(--opl-color-control-border);
    border-radius: var(--opl-radius);
    background: var(--opl-color-surface);
    color: var(--opl-color-text);
  }

  dialog::backdrop {
    background: rgb(0 0 0 / 0.45);
  }

  dialog h2 {
    font-size: 1.125rem;
    margin: 0 0 var(--opl-space-3);
  }

  dialog p {
    margin: 0 0 var(--opl-space-4);
    line-height: 1.5;
  }

  @media (min-width: 30rem) {
    .account dl {
      grid-template-columns: minmax(8rem, max-content) 1fr;
      gap: var(--opl-space-2) var(--opl-space-4);
    }
  }
`;
