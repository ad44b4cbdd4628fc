export * from './match.service.ts';
export { firstLink, hasSearchText, isLinkOnly, keptLinks, linksOf, normalizeIsrc, sourceKeyOf } from './match-keys.ts';
