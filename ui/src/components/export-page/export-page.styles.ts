import { css } from 'lit';

/** The format choices with their explanations, and the download step. */
export const exportPageStyles = css`
  :host {
    display: block;
  }

  fieldset.formats {
    border: none;
    padding: 0;
    margin: 0;
    display: grid;
    gap: var(--opl-space-2);
  }

  legend {
    font-weight: 600;
    margin-bottom: var(--opl-space-2);
  }

  .format {
    display: grid;
    grid-template-columns: auto 1fr;
    column-gap: var(--opl-space-2);
    align-items: baseline;
    font-weight: 400;
    padding: var(--opl-space-2) var(--opl-space-3);
    border: 1px solid var(--opl-color-border);
    border-radius: var(--opl-radius);
  }

  /* The chosen format is marked by more than colour: a thicker border. */
  .format:has(input:checked) {
    border-color: var(--opl-color-accent);
    /* The second pixel inside, so the choice does not shift the layout. */
    box-shadow: inset 0 0 0 1px var(--opl-color-accent);
  }

  .format-name {
    font-weight: 600;
    cursor: pointer;
  }

  .extension {
    font-family: var(--opl-font-mono);
    font-weight: 400;
    color: var(--opl-color-text-muted);
  }

  .explain {
    grid-column: 2;
    color: var(--opl-color-text-muted);
  }

  .hint {
    color: var(--opl-color-text-muted);
  }
`;
