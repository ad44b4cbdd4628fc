import { css } from 'lit';

/** The playlists of one account and the chosen playlist's tracks. */
export const playlistBrowserStyles = css`
  :host {
    display: block;
  }

  .heading-row,
  .as-of,
  .row {
    display: flex;
    flex-wrap: wrap;
    gap: var(--opl-space-3);
    align-items: center;
    justify-content: space-between;
    margin-bottom: var(--opl-space-4);
  }

  .heading-row h2,
  .as-of p {
    margin: 0;
  }

  .row {
    justify-content: flex-start;
    margin-bottom: 0;
  }

  .hint {
    color: var(--opl-color-text-muted);
    font-size: 0.9375rem;
  }

  .count {
    color: var(--opl-color-text-muted);
    font-weight: 400;
  }

  /* A playlist name is a button (it shows the tracks here) drawn like a link. */
  button.link {
    padding: 0;
    border: none;
    background: none;
    color: var(--opl-color-accent);
    text-decoration: underline;
    text-underline-offset: 0.15em;
    text-align: left;
  }

  button.link[aria-pressed='true'] {
    font-weight: 800;
    text-decoration-thickness: 2px;
  }

  tr[aria-current='true'] > * {
    background: var(--opl-color-accent-soft);
  }

  .number {
    text-align: right;
    white-space: nowrap;
    font-variant-numeric: tabular-nums;
  }

  .tracks {
    margin-top: var(--opl-space-6);
  }

  .badge {
    display: inline-block;
    margin-left: var(--opl-space-1);
    padding: 0 0.3rem;
    border: 1px solid var(--opl-color-control-border);
    border-radius: 3px;
    font-size: 0.75rem;
    font-weight: 700;
    color: var(--opl-color-text-muted);
  }

  /* Words and a dashed edge, so an entry that will not migrate does not rely on colour alone. */
  tr.not-migratable > * {
    background: var(--opl-color-bg);
  }

  tr.not-migratable > :first-child {
    box-shadow: inset 3px 0 0 var(--opl-color-danger);
  }

  .not-migratable-reason {
    display: block;
    margin-top: var(--opl-space-1);
    font-size: 0.875rem;
    font-weight: 600;
    color: var(--opl-color-danger);
  }

  .next-steps {
    margin: 0 0 var(--opl-space-2);
    padding-left: 1.25rem;
  }

  .failure-more > :last-child {
    margin-bottom: 0;
  }
`;
