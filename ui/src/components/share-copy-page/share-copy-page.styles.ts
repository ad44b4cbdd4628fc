import { css } from 'lit';

export const shareCopyPageStyles = css`
  section {
    margin-block: var(--opl-space-5, 1.5rem);
  }

  .share-name {
    font-weight: 600;
  }

  .ended {
    border-inline-start: 4px solid var(--opl-color-danger, #b42318);
    padding-inline-start: var(--opl-space-3, 0.75rem);
  }

  .target {
    display: flex;
    flex-wrap: wrap;
    gap: var(--opl-space-3, 0.75rem);
    align-items: end;
  }
`;
