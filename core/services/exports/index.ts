export { exportWarnings, type SelectedPlaylist } from './export-warnings.ts';
export { ExportError, type ExportErrorReason } from './export-error.ts';
export { clip, IMPORT_SOURCE_PROVIDER, PlaylistUnavailableError, type ExportSelection, type ExportSource, type SourcePlaylist } from './export-source.ts';
export type { AccountExportDependencies } from './account-export-source.ts';
export type { HistoryExportDependencies } from './history-export-source.ts';
export {
  BUNDLE_FILE_NAME,
  EXPORT_CHUNK_BYTES,
  EXPORT_CONTENT_TYPES,
  ExportService,
  MANIFEST_FILE_NAME,
  type ExportArtifact,
  type ExportPluginAccess,
  type ExportRequest,
} from './export.service.ts';
