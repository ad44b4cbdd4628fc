// Plain constants (no zod): plugins import these at runtime, so they must stay weightless.
/** What a provider can do, as the engine's capability descriptor names it. */
export const CAPABILITIES = [
  'READ_PLAYLISTS',
  'READ_TRACKS',
  'READ_LIBRARY',
  /** Add tracks to the native liked/saved-tracks library (the target of a LIKED_TRACKS migration). */
  'WRITE_LIBRARY',
  'READ_SAVED_ALBUMS',
  'WRITE_SAVED_ALBUMS',
  'READ_FOLLOWED_ARTISTS',
  'WRITE_FOLLOWED_ARTISTS',
  'CREATE_PLAYLIST',
  'ADD_TRACKS',
  'REMOVE_TRACKS',
  'REORDER',
  'SET_COVER',
  'SET_DESCRIPTION',
] as const;

export type Capability = (typeof CAPABILITIES)[number];

/** How a user connects an account of a provider. */
export const AUTH_KINDS = ['OAUTH_PKCE', 'OAUTH_DEVICE', 'HEADER_PASTE', 'DEVELOPER_USER_TOKEN', 'LONG_LIVED_TOKEN'] as const;

export type AuthKind = (typeof AUTH_KINDS)[number];

/** Playlist kinds; `LIKED_TRACKS` is a provider's native liked/saved-track library, never an ordinary playlist. */
export const PLAYLIST_KINDS = ['PLAYLIST', 'LIKED_TRACKS'] as const;
export type PlaylistKind = (typeof PLAYLIST_KINDS)[number];
