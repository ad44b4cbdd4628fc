import { css } from 'lit';

/** One review card: the source track as legend, the candidates as radio choices, then the actions. */
export const reviewItemStyles = css`
  :host {
    display: block;
  }

  fieldset {
    margin: 0 0 var(--opl-space-3);
  }

  ul {
    list-style: none;
    margin: 0 0 var(--opl-space-3);
    padding: 0;
  }

  label {
    display: flex;
    gap: var(--opl-space-2);
    align-items: baseline;
    padding: var(--opl-space-1) 0;
  }

  .muted,
  .reason {
    color: var(--opl-color-text-muted);
  }

  .reason {
    margin: 0 0 var(--opl-space-2);
  }

  .actions {
    display: flex;
    gap: var(--opl-space-2);
  }

  button[aria-disabled='true'] {
    opacity: 0.75;
    cursor: not-allowed;
  }

  form.search {
    display: flex;
    flex-wrap: wrap;
    gap: var(--opl-space-2);
    align-items: end;
    margin: var(--opl-space-2) 0;
  }

  form.search input {
    min-width: 16rem;
  }
`;
