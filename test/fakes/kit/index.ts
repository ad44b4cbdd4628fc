/**
 * The fake-provider kit: what every fake provider does alike (one loopback server per provider,
 * failure injection, OAuth records and pages, demo accounts). Each fake under `test/fakes/<provider>/`
 * keeps only what its provider does differently: paths, bodies, paging dialect, ids and rules.
 */
export * from '../fake-provider.ts';
export * from './grant-store.ts';
export * from './fake-server.ts';
export * from './demo-account.ts';
export * from './oauth-pages.ts';
export * from './authorize-step.ts';
export * from './consent-users.ts';
export * from './google-status.ts';
export * from './demo-edit.ts';
