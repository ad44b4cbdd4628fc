import { css } from 'lit';

export const organizerPageStyles = css`
  td.unavailable {
    color: var(--opl-color-text-muted);
    font-size: 0.9375rem;
    max-width: 22em;
  }

  td button {
    white-space: nowrap;
    padding: var(--opl-space-1) var(--opl-space-3);
  }

  th[scope='row'] {
    min-width: 8rem;
  }

  button.danger {
    color: var(--opl-color-danger);
    border-color: var(--opl-color-danger);
  }

  .account-field {
    display: flex;
    flex-direction: column;
    gap: var(--opl-space-1);
    max-width: 32rem;
  }

  .note ul {
    margin: var(--opl-space-2) 0 0;
    padding-left: var(--opl-space-6);
  }

  .note .action-name {
    font-weight: 600;
  }

  .diff {
    list-style: none;
    padding-left: 0;
  }

  .diff .removed del {
    color: var(--opl-color-danger);
  }

  .warning {
    padding: var(--opl-space-2) var(--opl-space-3);
    border-radius: var(--opl-radius);
    background: var(--opl-color-danger-soft);
    color: var(--opl-color-text);
  }

  .evidence,
  .item-note {
    color: var(--opl-color-text-muted);
  }

  .items {
    padding-left: var(--opl-space-6);
  }

  .items > li {
    margin-bottom: var(--opl-space-2);
  }

  .item-notes {
    margin: var(--opl-space-1) 0 0;
    padding-left: var(--opl-space-6);
  }

  .actions {
    display: flex;
    flex-wrap: wrap;
    gap: var(--opl-space-3);
  }

  .songs {
    list-style: none;
    padding-left: 0;
  }

  .songs label {
    font-weight: 400;
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

  opl-organizer-song-duplicates {
    margin-top: var(--opl-space-4);
  }
`;
