import { css } from 'lit';

export const organizerSongDuplicatesStyles = css`
  :host {
    display: block;
  }

  .field {
    display: flex;
    flex-direction: column;
    gap: var(--opl-space-1);
    margin-bottom: var(--opl-space-4);
  }

  legend {
    padding: 0 var(--opl-space-2);
  }

  fieldset label {
    display: block;
    font-weight: 400;
    margin: var(--opl-space-1) 0;
  }

  .groups {
    list-style: none;
    padding: 0;
    margin: 0 0 var(--opl-space-4);
  }

  .group {
    border: 1px solid var(--opl-color-border);
    border-radius: var(--opl-radius);
    padding: var(--opl-space-3) var(--opl-space-4);
    margin-bottom: var(--opl-space-3);
  }

  .group ul {
    list-style: none;
    padding: 0;
    margin: 0;
  }

  .group li label {
    font-weight: 400;
  }

  .why {
    display: block;
    margin-left: 1.75em;
    color: var(--opl-color-text-muted);
    font-size: 0.9375rem;
  }

  .role {
    font-weight: 600;
  }

  .actions {
    display: flex;
    flex-wrap: wrap;
    gap: var(--opl-space-3);
    align-items: center;
  }

  .every-copy {
    color: var(--opl-color-danger);
    font-weight: 600;
  }
`;
