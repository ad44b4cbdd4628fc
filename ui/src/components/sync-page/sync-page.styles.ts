import { css } from 'lit';

export const syncPageStyles = css`
  .state[data-status='paused'],
  .state[data-status='review_required'] {
    font-weight: 600;
  }

  .empty {
    color: var(--opl-color-text-muted);
  }

  td.actions {
    white-space: nowrap;
  }

  td.actions button + button {
    margin-inline-start: var(--opl-space-2);
  }

  .demo-actions {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: var(--opl-space-2);
    margin-block-start: var(--opl-space-2);
    padding: var(--opl-space-2);
    border-left: 4px solid var(--opl-color-accent);
    background: var(--opl-color-accent-soft);
    white-space: normal;
  }

  .demo-actions button + button {
    margin-inline-start: 0;
  }

  .demo-tag {
    font-weight: 600;
  }

  form.create {
    display: grid;
    gap: var(--opl-space-3);
    max-width: 40rem;
    margin-block-end: var(--opl-space-5);
  }

  fieldset {
    display: grid;
    gap: var(--opl-space-2);
  }

  .hint {
    color: var(--opl-color-text-muted);
  }
`;
