import { css } from 'lit';

export const generatorPageStyles = css`
  .field {
    display: flex;
    flex-direction: column;
    gap: var(--opl-space-1);
    margin-bottom: var(--opl-space-3);
  }

  fieldset {
    border: 1px solid var(--opl-color-border);
    border-radius: var(--opl-radius);
    padding: var(--opl-space-4);
    margin: 0 0 var(--opl-space-4);
  }

  legend {
    font-weight: 600;
    padding: 0 var(--opl-space-2);
  }

  .grid {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(15rem, 1fr));
    gap: 0 var(--opl-space-4);
  }

  .choice {
    display: inline-flex;
    align-items: center;
    gap: var(--opl-space-2);
    margin-right: var(--opl-space-4);
    font-weight: 400;
  }

  fieldset.choices .choice {
    display: flex;
    margin-bottom: var(--opl-space-2);
  }

  .muted {
    color: var(--opl-color-text-muted);
  }

  .progress {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: var(--opl-space-3);
    margin-bottom: var(--opl-space-4);
  }

  .progress p {
    margin: 0;
  }

  form.inline {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: var(--opl-space-2);
    margin-bottom: var(--opl-space-4);
  }

  ol.draft-items {
    list-style: none;
    padding: 0;
    margin: 0 0 var(--opl-space-4);
  }

  ol.draft-items > li {
    border: 1px solid var(--opl-color-border);
    border-radius: var(--opl-radius);
    padding: var(--opl-space-3);
    margin-bottom: var(--opl-space-2);
  }

  ol.draft-items > li[data-status='removed'],
  ol.draft-items > li[data-status='unresolved'] {
    border-style: dashed;
  }

  ol.draft-items > li[data-status='removed'] .words {
    text-decoration: line-through;
  }

  .song {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: var(--opl-space-2);
  }

  .song .words {
    flex: 1 1 16rem;
  }

  .handle {
    cursor: grab;
    padding: var(--opl-space-1) var(--opl-space-2);
  }

  .status,
  .confidence {
    font-weight: 600;
  }

  .actions {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: var(--opl-space-2);
    margin-top: var(--opl-space-2);
  }

  .actions button {
    padding: var(--opl-space-1) var(--opl-space-3);
  }

  .unresolved {
    margin: var(--opl-space-2) 0 0;
  }

  .explanation {
    margin-top: var(--opl-space-2);
  }

  .explanation ul {
    margin: var(--opl-space-2) 0 0;
  }

  ul.candidates,
  ul.results {
    list-style: none;
    padding: 0;
    margin: var(--opl-space-2) 0 var(--opl-space-4);
  }

  ul.candidates li,
  ul.results li {
    display: flex;
    flex-wrap: wrap;
    justify-content: space-between;
    align-items: center;
    gap: var(--opl-space-2);
    padding: var(--opl-space-2) 0;
    border-bottom: 1px solid var(--opl-color-border);
  }

  .toolbar {
    display: flex;
    flex-wrap: wrap;
    gap: var(--opl-space-2);
    margin-bottom: var(--opl-space-4);
  }

  .confirm {
    border-top: 1px solid var(--opl-color-border);
    padding-top: var(--opl-space-4);
  }
`;
