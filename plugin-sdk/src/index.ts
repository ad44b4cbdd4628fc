// Runtime entry for plugin code: it is bundled into every plugin, so it holds no zod and no
// engine code. Schemas (for hosts and tools) live in `@opl/plugin-sdk/schemas`.
export { AUTH_KINDS, CAPABILITIES, PLAYLIST_KINDS, type AuthKind, type Capability, type PlaylistKind } from './capabilities.ts';
export type * from './context.ts';
export {
  defineFormatPlugin,
  definePlugin,
  defineProviderPlugin,
  PLUGIN_DEFINITION_MARK,
  type FormatOperations,
  type FormatPluginDefinition,
  type PlaylistWriter,
  type PluginDefinition,
  type ProviderOperations,
  type ProviderPluginDefinition,
  type SerializeChunk,
  type SerializeChunks,
} from './define-plugin.ts';
export {
  AuthExpired,
  InvalidInput,
  NotFound,
  PLUGIN_ERROR_TYPES,
  PluginError,
  pluginErrorFromData,
  ProviderError,
  RateLimited,
  Unsupported,
  type PluginErrorData,
  type PluginErrorType,
} from './errors.ts';
export type { AuthMethod, Manifest, ManifestSource, NetworkGrant, Pacing, ProviderSection } from './manifest.schema.ts';
export type { Album, AlbumInput, Artist, ArtistInput, Playlist, PlaylistInput, Track, TrackInput } from './model.schema.ts';
export type { OperationInput, OperationName, OperationResult, OperationReturn } from './operations.schema.ts';
export { findExcessiveNesting, jsonDepthExceeds, MAX_METADATA_DEPTH } from './json-depth.ts';
export { lookupEach } from './lookup-answers.ts';
export { retryAfterSeconds } from './retry-after.ts';
export { decodeXmlDocument, decodeXmlPieces, XML_PIECE_BYTES, xmlEncoding, escapeXmlAttribute, escapeXmlText, parseXml, stripXmlIllegalChars, XML_PARSE_DEFAULTS, xmlAttributeKey, xmlChild, xmlChildren, XmlParseError, type XmlElement, type XmlAllowedDoctype, type XmlElementStart, type XmlParseOptions, type XmlText, type XmlEncoding } from './xml/index.ts';
export * as formatKit from './format-kit/index.ts';
export * as providerKit from './provider-kit/index.ts';
