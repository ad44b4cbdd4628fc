import { css } from 'lit';

export const organizerPageStyles = css`
  td.unavailable {
    color: var(--opl-color-text-muted);
    font-size: 0.9em;
    max-width: 22em;
  }

  button.danger {
    color: var(--opl-color-danger);
  }

  .diff {
    list-style: none;
    padding-left: 0;
  }

  .diff .removed del {
    color: var(--opl-color-danger);
  }

  .warning {
    padding: var(--opl-space-2);
    background: var(--opl-color-danger-soft);
    color: var(--opl-color-text);
  }

  .evidence,
  .note {
    color: var(--opl-color-text-muted);
  }

  .songs {
    list-style: none;
    padding-left: 0;
  }

  .position {
    display: inline-block;
    min-width: 2.5em;
    text-align: right;
  }

  .phrase input {
    display: block;
    margin-top: var(--opl-space-1);
  }
`;
