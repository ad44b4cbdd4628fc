import { css } from 'lit';

/** What the settings page adds to the shared panel and facts styles. */
export const settingsPageStyles = css`
  section {
    max-width: 42rem;
  }

  opl-problem-notice {
    margin-top: var(--opl-space-4);
  }
`;
