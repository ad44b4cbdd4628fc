import { css } from 'lit';

export const problemNoticeStyles = css`
  :host {
    display: block;
  }

  .problem {
    border: 1px solid var(--opl-color-danger);
    border-left-width: 4px;
    border-radius: var(--opl-radius);
    background: var(--opl-color-danger-soft);
    padding: var(--opl-space-3) var(--opl-space-4);
  }

  .title {
    margin: 0;
    font-weight: 700;
    color: var(--opl-color-danger);
  }

  .detail {
    margin: var(--opl-space-1) 0 0;
  }

  .meta {
    margin: var(--opl-space-2) 0 0;
    font-size: 0.875rem;
  }

  ::slotted(*) {
    margin-top: var(--opl-space-3);
  }
`;
