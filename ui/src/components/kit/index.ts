export { emit } from './emit.ts';
export { FocusTarget } from './focus-target.ts';
export { OplLightElement } from './light-element.ts';
export { nextStepsList } from './next-steps.template.ts';
export { scrollingTable, type TableColumn } from './scrolling-table.template.ts';
