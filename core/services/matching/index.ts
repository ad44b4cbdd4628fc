export * from './match.service.ts';
export { normalizeIsrc, sourceKeyOf } from './match-keys.ts';
