import { css } from 'lit';

export const healthIndicatorStyles = css`
  :host {
    display: inline-block;
    position: relative;
    font-size: 0.9375rem;
  }

  summary {
    display: inline-flex;
    align-items: center;
    gap: var(--opl-space-2);
    padding: var(--opl-space-1) var(--opl-space-3);
    border: 1px solid var(--opl-color-border);
    border-radius: 999px;
    cursor: pointer;
    list-style: none;
    user-select: none;
  }

  summary::-webkit-details-marker {
    display: none;
  }

  summary::after {
    content: '';
    width: 0.45em;
    height: 0.45em;
    border-right: 2px solid currentColor;
    border-bottom: 2px solid currentColor;
    transform: translateY(-0.15em) rotate(45deg);
    color: var(--opl-color-text-muted);
  }

  details[open] summary::after {
    transform: translateY(0.1em) rotate(-135deg);
  }

  .state {
    font-weight: 700;
  }

  .dot {
    width: 0.7em;
    height: 0.7em;
    border-radius: 50%;
    background: currentColor;
    flex: none;
  }

  /* Shapes differ too, so the state never depends on colour alone. */
  .degraded .dot {
    border-radius: 2px;
    transform: rotate(45deg);
  }

  .offline .dot {
    background: transparent;
    border: 2px solid currentColor;
  }

  .checking .dot {
    background: transparent;
    border: 2px dashed currentColor;
  }

  .ready {
    color: var(--opl-color-status-ready);
  }
  .degraded {
    color: var(--opl-color-status-degraded);
  }
  .offline {
    color: var(--opl-color-status-offline);
  }
  .checking {
    color: var(--opl-color-status-unknown);
  }

  .label {
    color: var(--opl-color-text-muted);
  }

  .panel {
    position: absolute;
    right: 0;
    top: calc(100% + var(--opl-space-2));
    z-index: 10;
    width: min(22rem, 90vw);
    padding: var(--opl-space-4);
    background: var(--opl-color-surface);
    border: 1px solid var(--opl-color-border);
    border-radius: var(--opl-radius);
    box-shadow: 0 8px 24px rgb(0 0 0 / 0.12);
  }

  .panel h2 {
    font-size: 1rem;
    margin: 0 0 var(--opl-space-2);
  }

  .panel p {
    margin: 0 0 var(--opl-space-2);
  }

  ul {
    list-style: none;
    padding: 0;
    margin: 0 0 var(--opl-space-3);
  }

  li {
    display: grid;
    grid-template-columns: 1fr auto;
    gap: 0 var(--opl-space-2);
    padding: var(--opl-space-1) 0;
    border-bottom: 1px solid var(--opl-color-border);
  }

  li .detail {
    grid-column: 1 / -1;
    color: var(--opl-color-text-muted);
    font-size: 0.875rem;
  }

  .up {
    color: var(--opl-color-status-ready);
    font-weight: 600;
  }

  .down {
    color: var(--opl-color-status-offline);
    font-weight: 600;
  }

  .muted {
    color: var(--opl-color-text-muted);
    font-size: 0.875rem;
  }
`;
