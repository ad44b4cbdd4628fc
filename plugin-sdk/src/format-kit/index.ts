/**
 * Format kit: helpers the format plugins share (decoding uploads, bounded issue lists, 64 KiB
 * output chunks, model bounds, the v1 export columns, playlist locations). Exported from the
 * runtime entry as the `formatKit` namespace; bundlers keep only the members a plugin uses.
 * Pure JavaScript: no zod, no node:*, nothing the sandbox lacks.
 */
export { splitArtistTitle, type ArtistTitle, type SplitOptions } from './artist-title.ts';
export { looksBinary } from './binary-content.ts';
export { markLocalFiles } from './local-links.ts';
export { PLAYLIST_COLUMNS, SCHEMA_VERSION, TRACK_COLUMNS, V1_COLUMNS, type V1Column } from './export-columns.ts';
export { EMPTY_TRACK_VALUES, playlistValues, trackValues, type CellValue } from './export-values.ts';
export {
  boundedText,
  clockDuration,
  dateTime,
  duration,
  integer,
  isrcCode,
  LOCAL_FILE_REASON,
  MEDIA_TYPE_VALUES,
  mediaType,
  millisecondsDuration,
  optionalText,
  PLAYLIST_KIND_VALUES,
  playlistKind,
  sourceReference,
  type Conversion,
  type SourceReference,
} from './field-values.ts';
export { knownTrackTableColumns, shownHeaderCells, trackTableColumns, TrackTableReader, type TrackTableColumns } from './track-table.ts';
export { guardFormula, needsFormulaGuard, unguardFormula } from './formula-guard.ts';
export { IssueCollector, MAX_LISTED_ISSUES, type IssueSeverity, type ParseIssue } from './issue-collector.ts';
export { unsupportedKind, type UnsupportedKind } from './media-kind.ts';
export { songLinkService } from './song-links.ts';
export { classifyLocation, fileStem, fileUrlPath, PROVIDER_COLLECTIONS, PROVIDER_ITEM_REASONS, providerItemOf, providerItemReason, REMOTE_ITEM_REASONS, remoteItemReason, webUrlOf, type ClassifyOptions, type LocationKind, type ProviderCollection, type ProviderItem, type RemoteEntry } from './locations.ts';
export { fillFromLocalFile } from './local-file-track.ts';
export { LIMITS } from './model-limits.ts';
export { FALLBACK_PLAYLIST_NAME, playlistNameFromFilename } from './playlist-name.ts';
export { orderedProviders, pickSourceUri, providerOfUri, trackSourceUri } from './source-uri.ts';
export { decodeFile, decodingWarning, detectEncoding, LEGACY_ENCODING_WARNING, PLAIN_UTF8, type DecodedText, type DetectedEncoding, type Decoding, type Detection } from './text-decoding.ts';
export { firstLineIs, MAX_LINE_LENGTH, ReadableLines, refuseLongLinesOnly, reportLongLine, textLines, type TextLine } from './text-lines.ts';
export { chunkUtf8, MAX_CHUNK_BYTES, utf8ByteLength } from './utf8-chunker.ts';
export { chunkedWriter, type PlaylistPieces } from './playlist-writer.ts';
export { isValidUtf8, utf8SequenceAt } from './utf8-validator.ts';
export { readV1Header, unsupportedVersion, V1RowGrouper, type V1Header, type V1HeaderOptions } from './v1-rows.ts';
