import { css } from 'lit';

/**
 * A short uppercase word in a thin frame beside a name: the service of an account (`.provider`, on
 * Home and Library), or a mark such as "demo" or "explicit" (`.badge`, on Generator).
 */
export const tagStyles = css`
  .provider,
  .badge {
    display: inline-block;
    font-size: 0.8125rem;
    font-weight: 700;
    text-transform: uppercase;
    letter-spacing: 0.03em;
    padding: 0 var(--opl-space-2);
    border: 1px solid currentColor;
    border-radius: var(--opl-radius);
  }
`;
