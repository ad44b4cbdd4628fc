import { css } from 'lit';

export const loginFormStyles = css`
  :host {
    display: block;
    max-width: 26rem;
  }

  form {
    display: grid;
    gap: var(--opl-space-3);
  }

  .actions {
    display: flex;
    gap: var(--opl-space-3);
  }
`;
