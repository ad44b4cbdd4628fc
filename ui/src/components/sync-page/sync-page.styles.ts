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
