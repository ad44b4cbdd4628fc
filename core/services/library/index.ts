export { LIBRARY_PAGE_DEFAULT, LIBRARY_PAGE_MAX, LibraryReadService, LibraryUnsupportedError, type LibraryKind, type LibraryPageView } from './library-read.service.ts';
export { MIGRATION_STATES, type MigrationState, type MigrationStatus } from './migration-status.ts';
export { WorkspaceError, WorkspaceService, type DiffView, type GroupView, type ResolveView, type MemberView, type TargetContext, type WorkspaceView } from './workspace.service.ts';
export type { RefreshView } from './workspace-refresh.ts';
export { OVERVIEW_RECENT_JOBS, type HomeOverview } from './home-overview.ts';
export { RESOLVE_SEARCH_LIMIT } from './resolve-unknown.ts';
