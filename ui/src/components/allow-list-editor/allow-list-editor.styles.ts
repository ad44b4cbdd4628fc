import { css } from 'lit';

export const allowListEditorStyles = css`
  :host {
    display: block;
  }

  form {
    margin-top: var(--opl-space-6);
    padding-top: var(--opl-space-4);
    border-top: 1px solid var(--opl-color-border);
  }

  .fields {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(13rem, 1fr));
    gap: var(--opl-space-4);
    margin-bottom: var(--opl-space-4);
  }

  .field {
    display: grid;
    gap: var(--opl-space-1);
    align-content: start;
  }

  .field .hint {
    font-size: 0.875rem;
  }

  .field input {
    width: 100%;
  }

  .actions {
    display: flex;
    gap: var(--opl-space-3);
  }

  .actions-cell {
    text-align: right;
    white-space: nowrap;
  }

  .actions-cell button {
    padding: var(--opl-space-1) var(--opl-space-3);
  }
`;
