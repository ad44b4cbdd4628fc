export { exportWarnings, type SelectedPlaylist } from './export-warnings.ts';
export {
  BUNDLE_FILE_NAME,
  EXPORT_CHUNK_BYTES,
  EXPORT_CONTENT_TYPES,
  ExportError,
  ExportService,
  MANIFEST_FILE_NAME,
  type ExportArtifact,
  type ExportErrorReason,
  type ExportPluginAccess,
  type ExportRequest,
  type PlaylistSelection,
} from './export.service.ts';
