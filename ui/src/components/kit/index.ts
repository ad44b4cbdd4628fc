/**
 * The UI page kit: what the pages do alike, so a new page is written once. `OplPage` (the summary
 * and the live-region announcement), `FocusTarget` (focus after a render), `OplLightElement` (a
 * sub-component in its page's shadow root), `emit`/`announce` (events to the page), and templates:
 * `scrollingTable`/`tableSection` (list tables), `nextStepsList`, `secretField`. Styles shared by
 * pages live in `ui/src/theme/`; the load-failed notice in `problem-notice/load-failed.template.ts`.
 */
export { announce, emit } from './emit.ts';
export { FocusTarget } from './focus-target.ts';
export { OplLightElement } from './light-element.ts';
export { OplPage } from './page-element.ts';
export { nextStepsList } from './next-steps.template.ts';
export { scrollingTable, tableSection, TRACK_COLUMNS, type TableColumn, type TableSection } from './scrolling-table.template.ts';
export { secretField } from './secret-field.template.ts';
