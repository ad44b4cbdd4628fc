export * from './match.service.ts';
export { hasSearchText, isLinkOnly, keptLinks, linksOf, namedLinks, normalizeIsrc, sourceKeyOf } from './match-keys.ts';
