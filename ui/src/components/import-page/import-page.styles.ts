import { css } from 'lit';

/** What the import page adds: the three ways in side by side, the drop zone, issue lists and the preview. */
export const importPageStyles = css`
  .ways {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(17rem, 1fr));
    gap: var(--opl-space-6);
    align-items: start;
  }

  /* Two columns where there is room: upload above link on the left, the taller paste box on the right (DOM and tab order: upload, paste, link). */
  .text-way {
    grid-row: span 2;
  }

  .way {
    display: grid;
    align-content: start;
    gap: var(--opl-space-2);
    min-width: 0;
  }

  .way h3 {
    margin-bottom: var(--opl-space-1);
  }

  .way p {
    margin: 0;
  }

  .drop-zone {
    display: grid;
    justify-items: start;
    gap: var(--opl-space-3);
    padding: var(--opl-space-4);
    border: 2px dashed var(--opl-color-control-border);
    border-radius: var(--opl-radius);
    background: var(--opl-color-bg);
  }

  /* A solid accent border and a soft fill, so the drop target does not rely on colour alone. */
  .drop-zone[data-over='true'] {
    border-style: solid;
    border-color: var(--opl-color-focus-ring);
    background: var(--opl-color-notice-soft);
  }

  textarea,
  input {
    width: 100%;
  }

  textarea {
    font-family: var(--opl-font-mono);
    font-size: 0.9375rem;
    padding: var(--opl-space-2) var(--opl-space-3);
    border: 1px solid var(--opl-color-control-border);
    border-radius: var(--opl-radius);
    background: var(--opl-color-surface);
    color: var(--opl-color-text);
    resize: vertical;
    min-height: 7rem;
  }

  textarea[aria-invalid='true'] {
    border-color: var(--opl-color-danger);
    border-width: 2px;
  }

  .optional {
    font-weight: 400;
    color: var(--opl-color-text-muted);
  }

  .form-actions {
    display: flex;
    gap: var(--opl-space-3);
    margin-top: var(--opl-space-2);
  }

  .way opl-problem-notice {
    margin: var(--opl-space-2) 0 0;
  }

  .failure-more p,
  .failure-more ul {
    margin: 0 0 var(--opl-space-2);
  }

  .failure-more > :last-child {
    margin-bottom: 0;
  }

  .failure-more h4 {
    margin: var(--opl-space-2) 0 var(--opl-space-1);
  }

  /* Muted text is not guaranteed on the danger background; body text colour is. */
  opl-problem-notice .secondary,
  opl-problem-notice .count {
    color: var(--opl-color-text);
  }

  .next-steps {
    padding-left: 1.25rem;
  }

  .button-link {
    display: inline-block;
    font-weight: 600;
    padding: var(--opl-space-2) var(--opl-space-4);
    border-radius: var(--opl-radius);
    background: var(--opl-color-accent);
    color: var(--opl-color-on-accent);
    text-decoration: none;
  }

  .button-link:hover {
    text-decoration: underline;
  }

  .count {
    color: var(--opl-color-text-muted);
    font-weight: 400;
  }

  h4 {
    font-size: 0.9375rem;
    margin: var(--opl-space-4) 0 var(--opl-space-2);
  }

  .issues {
    list-style: none;
    margin: 0;
    padding: 0;
    display: grid;
    gap: var(--opl-space-1);
  }

  .issues li {
    overflow-wrap: anywhere;
  }

  .issues .where {
    font-weight: 700;
    margin-right: var(--opl-space-2);
  }

  .issues .secondary {
    display: inline;
    margin-left: var(--opl-space-2);
    font-size: 0.8125rem;
    color: var(--opl-color-text-muted);
  }

  .issue-groups {
    margin: var(--opl-space-6) 0;
    padding: var(--opl-space-4);
    border: 1px solid var(--opl-color-border);
    border-left: 4px solid var(--opl-color-accent);
    border-radius: var(--opl-radius);
    background: var(--opl-color-notice-soft);
  }

  .issue-groups h4:first-of-type {
    margin-top: 0;
  }

  .later {
    margin-top: var(--opl-space-2);
  }

  /* Clearly unavailable: dashed outline and muted label; still focusable so the note is heard. */
  button.unavailable {
    cursor: not-allowed;
    opacity: 1;
    border-style: dashed;
    color: var(--opl-color-text-muted);
    background: var(--opl-color-bg);
  }

  .playlist {
    margin-top: var(--opl-space-6);
  }

  /* Names and descriptions come from files: a long word wraps instead of widening the page. */
  h2,
  h3,
  .description {
    overflow-wrap: anywhere;
  }

  /* A list box is as wide as its longest option, here a playlist name from a file. */
  select {
    max-width: 100%;
  }

  .more-playlists {
    margin-top: var(--opl-space-6);
    display: flex;
    flex-wrap: wrap;
    gap: var(--opl-space-3);
    align-items: center;
  }

  .more-playlists .hint {
    margin: 0;
  }

  .description {
    color: var(--opl-color-text-muted);
  }

  .number {
    text-align: right;
    white-space: nowrap;
    font-variant-numeric: tabular-nums;
  }

  .export-choice {
    display: inline-flex;
    flex-wrap: wrap;
    gap: var(--opl-space-2);
    align-items: center;
  }

  .export-choice label {
    font-weight: 600;
  }

  .share {
    margin-top: var(--opl-space-6);
    padding: var(--opl-space-4);
    border: 1px solid var(--opl-color-border);
    border-radius: var(--opl-radius, 6px);
  }

  .share h3 {
    margin-top: 0;
  }

  .share-form {
    display: flex;
    flex-wrap: wrap;
    gap: var(--opl-space-2);
    align-items: center;
  }

  .share-form label,
  .share-result label {
    font-weight: 600;
  }

  .share-result {
    margin-top: var(--opl-space-4);
    display: grid;
    gap: var(--opl-space-2);
  }

  .share opl-problem-notice {
    margin-top: var(--opl-space-4);
  }

  /* A song named only by a link: long URLs wrap instead of widening the table. */
  td .link,
  th .link {
    overflow-wrap: anywhere;
    font-weight: 400;
  }
`;
