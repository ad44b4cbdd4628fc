import { css } from 'lit';

/** The source radio group and the inline import id form. */
export const sourcePickerStyles = css`
  :host {
    display: block;
  }

  fieldset {
    /* A fieldset is as wide as its widest line by default: a long import name would widen the page. */
    min-width: 0;
  }

  label.choice {
    overflow-wrap: anywhere;
  }

  .import-text {
    min-width: 0;
  }

  .import-name {
    margin-right: var(--opl-space-2);
  }

  form.inline .field-error {
    flex-basis: 100%;
  }

  form.inline {
    display: flex;
    flex-wrap: wrap;
    gap: var(--opl-space-2) var(--opl-space-3);
    align-items: center;
  }

  form.inline .hint {
    flex-basis: 100%;
  }
`;
