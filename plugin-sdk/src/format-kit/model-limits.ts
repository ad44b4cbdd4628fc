/**
 * Lengths the model schema allows (plugin-sdk model.schema.ts). The host validates every parse
 * result against that schema and rejects the whole result on one violation, so the reader cuts
 * longer values itself and reports each cut.
 */
export const LIMITS = {
  playlistName: 1_000,
  text: 10_000,
  title: 2_000,
  artist: 2_000,
  isrc: 32,
  providerUri: 2_000,
  /** Playlists in one parse result. */
  playlists: 10_000,
} as const;
