export { announce, emit } from './emit.ts';
export { FocusTarget } from './focus-target.ts';
export { OplLightElement } from './light-element.ts';
export { OplPage } from './page-element.ts';
export { nextStepsList } from './next-steps.template.ts';
export { scrollingTable, tableSection, TRACK_COLUMNS, type TableColumn, type TableSection } from './scrolling-table.template.ts';
export { secretField } from './secret-field.template.ts';
