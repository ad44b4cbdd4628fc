export { jsonDepthExceeds } from '@opl/plugin-sdk/schemas';
export { importPlaylistRef, OWNER_ALIAS, parseOpenPlaylistRef, providerPlaylistRef, type OpenPlaylistRef } from './open-playlist-ref.ts';
export {
  MAX_IMPORT_DEPTH,
  OPEN_PLAYLIST_SOURCE,
  OpenPlaylistError,
  OpenPlaylistsService,
  type ExportToTargetOutcome,
  type ExportToTargetRequest,
  type ImportOutcome,
  type ImportRequest,
  type OpenPlaylistErrorReason,
} from './open-playlists.service.ts';
