import { css } from 'lit';

export const areaPlaceholderStyles = css`
  .notice {
    display: flex;
    gap: var(--opl-space-3);
    align-items: flex-start;
    max-width: 42rem;
    margin: 0 0 var(--opl-space-8);
    padding: var(--opl-space-4);
    background: var(--opl-color-notice-soft);
    border: 1px solid var(--opl-color-border);
    border-left: 4px solid var(--opl-color-accent);
    border-radius: var(--opl-radius);
    line-height: 1.5;
  }

  .notice p {
    margin: 0;
  }

  .notice strong {
    display: block;
  }

  .icon {
    flex: none;
    display: grid;
    place-items: center;
    width: 1.5rem;
    height: 1.5rem;
    border-radius: 50%;
    background: var(--opl-color-accent);
    color: var(--opl-color-on-accent);
    font-weight: 700;
    font-size: 0.875rem;
  }

  h2 {
    font-size: 1.125rem;
    margin: 0 0 var(--opl-space-3);
  }

  ul {
    margin: 0;
    padding-left: 1.25rem;
    max-width: 42rem;
    line-height: 1.6;
  }

  li + li {
    margin-top: var(--opl-space-2);
  }
`;
