// Public face of the plugin SDK. It must stand alone: nothing here may import the engine.
export {
  AUTH_KINDS,
  authKindSchema,
  CAPABILITIES,
  capabilitySchema,
  PLAYLIST_KINDS,
  playlistKindSchema,
  type AuthKind,
  type Capability,
  type PlaylistKind,
} from './capabilities.ts';
