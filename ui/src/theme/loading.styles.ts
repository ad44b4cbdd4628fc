import { css } from 'lit';

/** A small spinning ring beside a "loading" text (`<span class="spinner" aria-hidden="true">`). */
export const spinnerStyles = css`
  .spinner {
    width: 1rem;
    height: 1rem;
    border: 2px solid var(--opl-color-border);
    border-top-color: var(--opl-color-accent);
    border-radius: 50%;
    animation: spin 0.8s linear infinite;
  }

  @keyframes spin {
    to {
      transform: rotate(360deg);
    }
  }
`;

/** A muted "loading …" line with its spinner, where a list or preview will appear. */
export const loadingLineStyles = css`
  .loading {
    display: flex;
    align-items: center;
    gap: var(--opl-space-2);
    color: var(--opl-color-text-muted);
    font-weight: 600;
  }
`;
