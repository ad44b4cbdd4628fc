import { css } from 'lit';

/** Filters in a wrapping row, the report links and the pager. */
export const jobDetailStyles = css`
  :host {
    display: block;
  }

  .filters {
    display: flex;
    flex-wrap: wrap;
    gap: var(--opl-space-3);
    align-items: end;
    margin-bottom: var(--opl-space-4);
  }

  .filters fieldset {
    border: none;
    padding: 0;
    margin: 0;
    flex-basis: 100%;
  }

  .filters legend {
    font-weight: 600;
  }

  label.check {
    font-weight: 400;
    margin-right: var(--opl-space-3);
  }

  select {
    font: inherit;
  }

  .pager {
    display: flex;
    gap: var(--opl-space-2);
  }

  .secondary {
    color: var(--opl-color-text-muted);
    font-weight: 400;
  }
`;
