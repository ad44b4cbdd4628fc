import { css } from 'lit';

/** A scrollable checklist of albums or artists with its count and "choose all". */
export const libraryPickerStyles = css`
  :host {
    display: block;
  }

  ul {
    list-style: none;
    margin: 0 0 var(--opl-space-2);
    padding: 0;
    max-height: 20rem;
    overflow-y: auto;
  }

  li {
    padding: var(--opl-space-1) 0;
  }

  label {
    font-weight: 400;
  }

  .tools {
    display: flex;
    gap: var(--opl-space-4);
    align-items: baseline;
    margin: 0 0 var(--opl-space-2);
  }

  .muted {
    color: var(--opl-color-text-muted);
  }
`;
