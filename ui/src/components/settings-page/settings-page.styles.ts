import { css } from 'lit';

/** What the settings page adds to the shared panel and facts styles. */
export const settingsPageStyles = css`
  section {
    max-width: 42rem;
  }

  /* The OpenID sign-in is a navigation (the provider's page), so it is a link styled as the primary button. */
  a.button.primary {
    display: inline-block;
    font-weight: 600;
    text-decoration: none;
    border-radius: var(--opl-radius);
    padding: var(--opl-space-2) var(--opl-space-4);
    border: 1px solid var(--opl-color-accent);
    background: var(--opl-color-accent);
    color: var(--opl-color-on-accent);
  }

  opl-problem-notice {
    margin-top: var(--opl-space-4);
  }
`;
