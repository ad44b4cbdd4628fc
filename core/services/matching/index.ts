export * from './match.service.ts';
export { hasSearchText, normalizeIsrc, sourceKeyOf } from './match-keys.ts';
