import { css } from 'lit';

/** The Home overview: a grid of cards, each a short list with a link to its area. */
export const homePageStyles = css`
  .cards {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(18rem, 1fr));
    gap: var(--opl-space-4);
  }

  .cards section {
    margin-bottom: 0;
  }

  ul.items {
    list-style: none;
    padding: 0;
    margin: 0 0 var(--opl-space-4);
    display: grid;
    gap: var(--opl-space-2);
  }

  ul.items li {
    display: grid;
    gap: var(--opl-space-1);
  }

  .secondary {
    color: var(--opl-color-text-muted);
    font-size: 0.875rem;
  }

  .attention {
    font-weight: 700;
  }
`;
