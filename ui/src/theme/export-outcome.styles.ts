import { css } from 'lit';

/**
 * Below an export form (the Export page's, a finished migration's): the outcome or the problem,
 * set apart from the form, with the problem's next steps and next action.
 */
export const exportOutcomeStyles = css`
  opl-export-result,
  opl-problem-notice {
    margin-top: var(--opl-space-4);
  }

  .next-steps {
    margin: var(--opl-space-2) 0;
    padding-left: var(--opl-space-6);
    line-height: 1.5;
  }

  .next-action {
    margin: var(--opl-space-2) 0 0;
  }
`;
