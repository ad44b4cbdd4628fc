import { css } from 'lit';

/** Labelled fields (text, list boxes, text areas) with a hint and a field-level error, as the forms of every page lay them out. */
export const formStyles = css`
  label {
    font-weight: 600;
  }

  .hint {
    margin: 0;
    color: var(--opl-color-text-muted);
    font-size: 0.9375rem;
  }

  input,
  select,
  textarea {
    font: inherit;
    padding: var(--opl-space-2) var(--opl-space-3);
    border: 1px solid var(--opl-color-control-border);
    border-radius: var(--opl-radius);
    background: var(--opl-color-surface);
    color: var(--opl-color-text);
  }

  /* A list box is as wide as its longest option (a playlist name): never wider than its column. */
  select {
    max-width: 100%;
  }

  input[aria-invalid='true'],
  select[aria-invalid='true'],
  textarea[aria-invalid='true'] {
    border-color: var(--opl-color-danger);
    border-width: 2px;
  }

  .field-error {
    margin: 0;
    color: var(--opl-color-danger);
    font-weight: 600;
  }
`;
