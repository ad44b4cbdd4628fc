import { css } from 'lit';

export const appStyles = css`
  :host {
    display: flex;
    flex-direction: column;
    min-height: 100vh;
    background: var(--opl-color-bg);
    line-height: 1.4;
  }

  .skip-link {
    position: absolute;
    left: var(--opl-space-4);
    top: var(--opl-space-2);
    z-index: 100;
    padding: var(--opl-space-2) var(--opl-space-4);
    background: var(--opl-color-accent);
    color: var(--opl-color-on-accent);
    border-radius: var(--opl-radius);
    font-weight: 600;
    transform: translateY(-200%);
  }

  .skip-link:focus {
    transform: none;
  }

  header {
    display: flex;
    align-items: center;
    justify-content: space-between;
    gap: var(--opl-space-4);
    flex-wrap: wrap;
    padding: var(--opl-space-3) var(--opl-space-6);
    background: var(--opl-color-surface);
    border-bottom: 1px solid var(--opl-color-border);
  }

  .brand {
    display: flex;
    align-items: center;
    gap: var(--opl-space-3);
    margin: 0;
    font-size: 1.125rem;
    font-weight: 700;
    letter-spacing: -0.01em;
  }

  /* Three stacked bars of decreasing length: a playlist. */
  .mark {
    display: grid;
    gap: 3px;
    width: 1.25rem;
  }

  .mark span {
    height: 4px;
    border-radius: 2px;
    background: var(--opl-color-accent);
  }

  .mark span:nth-child(2) {
    width: 75%;
  }

  .mark span:nth-child(3) {
    width: 50%;
  }

  .tag {
    font-size: 0.8125rem;
    font-weight: 600;
    color: var(--opl-color-text-muted);
    border: 1px solid var(--opl-color-border);
    border-radius: 999px;
    padding: 0 var(--opl-space-2);
  }

  .layout {
    display: grid;
    grid-template-columns: 14rem minmax(0, 1fr);
    flex: 1;
  }

  nav {
    background: var(--opl-color-surface);
    border-right: 1px solid var(--opl-color-border);
    padding: var(--opl-space-4) var(--opl-space-3);
  }

  nav ul {
    list-style: none;
    margin: 0;
    padding: 0;
    display: grid;
    gap: 2px;
  }

  nav a {
    display: block;
    padding: var(--opl-space-2) var(--opl-space-3);
    border-radius: var(--opl-radius);
    color: var(--opl-color-text);
    text-decoration: none;
  }

  nav a:hover {
    background: var(--opl-color-bg);
    text-decoration: underline;
  }

  nav a[aria-current='page'] {
    background: var(--opl-color-accent-soft);
    color: var(--opl-color-accent);
    font-weight: 700;
    box-shadow: inset 3px 0 0 var(--opl-color-accent);
  }

  main {
    padding: var(--opl-space-8) clamp(var(--opl-space-4), 4vw, 3.5rem);
    max-width: 56rem;
  }

  main:focus {
    outline: none;
  }

  h1 {
    font-size: 1.75rem;
    line-height: 1.2;
    letter-spacing: -0.015em;
    margin: 0 0 var(--opl-space-3);
  }


  .not-found p {
    line-height: 1.5;
  }

  @media (max-width: 48rem) {
    header {
      padding: var(--opl-space-3) var(--opl-space-4);
    }

    .layout {
      /* minmax(0, …): wide content such as a table scrolls inside main instead of widening the page. */
      grid-template-columns: minmax(0, 1fr);
      grid-template-rows: auto 1fr;
    }

    nav {
      border-right: none;
      border-bottom: 1px solid var(--opl-color-border);
      padding: var(--opl-space-2) var(--opl-space-3);
    }

    nav ul {
      display: flex;
      flex-wrap: wrap;
      gap: var(--opl-space-1);
    }

    nav a[aria-current='page'] {
      box-shadow: inset 0 -3px 0 var(--opl-color-accent);
    }
  }
`;
