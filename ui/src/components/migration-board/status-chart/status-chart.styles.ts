import { css } from 'lit';

/** Bars in the accent colour; problem statuses in the danger colour so they stand apart. */
export const statusChartStyles = css`
  :host {
    display: block;
    max-width: 36rem;
  }

  figure {
    margin: 0 0 var(--opl-space-4);
  }

  figcaption {
    font-weight: 600;
    margin-bottom: var(--opl-space-2);
  }

  svg {
    display: block;
    font: 13px var(--opl-font);
  }

  .label,
  .value {
    fill: var(--opl-color-text);
  }

  .bar {
    fill: var(--opl-color-accent);
  }

  .bar-failed,
  .bar-skipped,
  .bar-needs_review,
  .bar-partial {
    fill: var(--opl-color-danger);
  }
`;
