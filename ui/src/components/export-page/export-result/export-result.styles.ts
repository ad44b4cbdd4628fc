import { css } from 'lit';

/** The downloaded file, its archive entries and the warnings in words. */
export const exportResultStyles = css`
  :host {
    display: block;
  }

  h3 {
    font-size: 1rem;
    margin: 0 0 var(--opl-space-2);
    /* File names can be one long word: it wraps instead of widening the page. */
    overflow-wrap: anywhere;
  }

  h4 {
    font-size: 1rem;
    margin: 0 0 var(--opl-space-2);
  }

  p {
    line-height: 1.5;
    margin: 0 0 var(--opl-space-3);
  }

  .warnings {
    padding: var(--opl-space-3) var(--opl-space-4);
    margin: var(--opl-space-4) 0 0;
    border: 1px solid var(--opl-color-border);
    border-left: 4px solid var(--opl-color-accent);
    border-radius: var(--opl-radius);
  }

  .warnings ul {
    margin: 0 0 var(--opl-space-2);
    padding-left: var(--opl-space-6);
    line-height: 1.5;
  }

  .engine-words {
    display: block;
    color: var(--opl-color-text-muted);
  }

  .note {
    color: var(--opl-color-text-muted);
  }
`;
