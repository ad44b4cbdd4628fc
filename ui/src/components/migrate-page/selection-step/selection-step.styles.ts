import { css } from 'lit';

/** The source's collections as a checklist, with an optional per-track list under each. */
export const selectionStepStyles = css`
  :host {
    display: block;
  }

  fieldset {
    /* A fieldset is as wide as its widest word by default: a long name would widen the page. */
    min-width: 0;
  }

  legend,
  label {
    overflow-wrap: anywhere;
  }

  .collection > label {
    min-width: 0;
  }

  .more {
    display: flex;
    flex-wrap: wrap;
    gap: var(--opl-space-2) var(--opl-space-4);
    margin: var(--opl-space-2) 0 0;
  }

  legend {
    font-weight: 600;
  }

  ul {
    list-style: none;
    margin: 0;
    padding: 0;
  }

  .collection {
    display: flex;
    flex-wrap: wrap;
    gap: var(--opl-space-2) var(--opl-space-4);
    align-items: baseline;
    padding: var(--opl-space-2) 0;
    border-bottom: 1px solid var(--opl-color-border);
  }

  .collection:last-child {
    border-bottom: none;
  }

  .collection > fieldset {
    flex-basis: 100%;
  }

  .track-tools {
    display: flex;
    flex-wrap: wrap;
    gap: var(--opl-space-2) var(--opl-space-4);
    align-items: baseline;
    margin-bottom: var(--opl-space-2);
  }

  .track-tools label {
    display: flex;
    flex-wrap: wrap;
    gap: var(--opl-space-2);
    align-items: baseline;
  }

  .tracks ul {
    max-height: 20rem;
    overflow-y: auto;
  }

  .tracks label {
    font-weight: 400;
  }

  .muted {
    color: var(--opl-color-text-muted);
  }

  .library {
    display: grid;
    gap: var(--opl-space-2);
  }
`;
