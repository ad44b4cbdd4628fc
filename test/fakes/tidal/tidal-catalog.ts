import { isAvailableOn, providerId, seedCatalog, type SeedTrack } from '../seed-catalog.ts';

/**
 * The fake TIDAL catalogue: the shared seed recordings under TIDAL-style ids (numeric track,
 * album and artist ids), with TIDAL's own split of a title and its `version` ("Live",
 * "Acoustic"), album cover art as artwork resources, and a few music videos (TIDAL
 * playlists can hold videos, which no other service can take). Episodes and local files are not
 * in TIDAL's catalogue, nor are the seed recordings marked as available elsewhere only.
 */

export interface CatalogTrack {
  readonly id: string;
  readonly seedKey: string;
  readonly title: string;
  readonly version: string | null;
  readonly isrc: string | null;
  readonly durationS: number;
  readonly explicit: boolean;
  readonly albumId: string;
  readonly artistIds: readonly string[];
  readonly popularity: number;
}

export interface CatalogVideo {
  readonly id: string;
  readonly title: string;
  readonly isrc: string;
  readonly durationS: number;
  readonly explicit: boolean;
  readonly artistIds: readonly string[];
  readonly releaseDate: string;
}

export interface CatalogAlbum {
  readonly id: string;
  readonly seedKey: string;
  readonly title: string;
  readonly barcodeId: string;
  readonly releaseDate: string;
  readonly albumType: 'ALBUM' | 'EP' | 'SINGLE';
  readonly artistIds: readonly string[];
  readonly trackIds: string[];
  readonly coverArtId: string;
}

export interface CatalogArtist {
  readonly id: string;
  readonly seedKey: string;
  readonly name: string;
  readonly profileArtId: string;
}

export interface CatalogArtwork {
  readonly id: string;
  readonly files: readonly { href: string; meta: { width: number; height: number } }[];
}

export interface TidalCatalog {
  readonly tracks: ReadonlyMap<string, CatalogTrack>;
  readonly videos: ReadonlyMap<string, CatalogVideo>;
  readonly albums: ReadonlyMap<string, CatalogAlbum>;
  readonly artists: ReadonlyMap<string, CatalogArtist>;
  readonly artworks: ReadonlyMap<string, CatalogArtwork>;
  /** Seed key → TIDAL id, for tracks, albums and artists. */
  readonly idOf: (seedKey: string) => string | null;
}

export const PROVIDER = 'tidal';

// Parenthesised versions move to `version`; a " - Remastered 2011" style suffix stays in the title,
// as it does for many TIDAL releases.
const VERSION_SUFFIX = /^(.*?) \(((?:Live|Acoustic|Club Remix|Radio Edit|Karaoke Version))\)$/;

/** TIDAL keeps the version apart from the title; the plugin has to put them back together. */
export function splitVersion(title: string): { title: string; version: string | null } {
  const match = VERSION_SUFFIX.exec(title);
  return match ? { title: match[1]!, version: match[2]! } : { title, version: null };
}

function artwork(id: string): CatalogArtwork {
  return {
    id,
    files: [1280, 640, 320, 160, 80].map((size) => ({ href: `https://resources.tidal.com/images/${id}/${size}x${size}.jpg`, meta: { width: size, height: size } })),
  };
}

let cached: TidalCatalog | null = null;

export function tidalCatalog(): TidalCatalog {
  if (cached) return cached;
  const seed = seedCatalog();
  const tracks = new Map<string, CatalogTrack>();
  const videos = new Map<string, CatalogVideo>();
  const albums = new Map<string, CatalogAlbum>();
  const artists = new Map<string, CatalogArtist>();
  const artworks = new Map<string, CatalogArtwork>();
  const ids = new Map<string, string>();

  for (const artist of seed.artists.values()) {
    const id = providerId(PROVIDER, artist.key, 'digits', 7);
    const profileArtId = providerId(PROVIDER, `profile:${artist.key}`, 'base62', 16);
    artworks.set(profileArtId, artwork(profileArtId));
    artists.set(id, { id, seedKey: artist.key, name: artist.name, profileArtId });
    ids.set(artist.key, id);
  }
  for (const album of seed.albums.values()) {
    const id = providerId(PROVIDER, album.key, 'digits', 9);
    const coverArtId = providerId(PROVIDER, `cover:${album.key}`, 'base62', 16);
    artworks.set(coverArtId, artwork(coverArtId));
    albums.set(id, {
      id,
      seedKey: album.key,
      title: album.title,
      barcodeId: album.upc,
      releaseDate: album.releaseDate,
      albumType: album.kind === 'single' ? 'SINGLE' : 'ALBUM',
      artistIds: album.artistKeys.map((key) => ids.get(key)!),
      trackIds: [],
      coverArtId,
    });
    ids.set(album.key, id);
  }
  const available = [...seed.tracks.values()].filter((track: SeedTrack) => track.mediaType === 'track' && isAvailableOn(track, PROVIDER));
  for (const track of available) {
    const id = providerId(PROVIDER, track.key, 'digits', 9);
    const albumId = ids.get(track.albumKey)!;
    const { title, version } = splitVersion(track.title);
    tracks.set(id, {
      id,
      seedKey: track.key,
      title,
      version,
      isrc: track.isrc,
      durationS: Math.round(track.durationMs / 1000),
      explicit: track.explicit,
      albumId,
      artistIds: track.artistKeys.map((key) => ids.get(key)!),
      popularity: Number(((Number(id.slice(-3)) % 100) / 100).toFixed(2)),
    });
    albums.get(albumId)!.trackIds.push(id);
    ids.set(track.key, id);
  }
  // Music videos of the first few recordings: playlist entries that cannot migrate anywhere.
  for (const track of [...tracks.values()].filter((entry) => entry.isrc).slice(0, 3)) {
    const id = providerId(PROVIDER, `video:${track.seedKey}`, 'digits', 9);
    const album = albums.get(track.albumId)!;
    videos.set(id, { id, title: `${track.title} (Official Video)`, isrc: `${track.isrc!.slice(0, 7)}9${track.isrc!.slice(8)}`, durationS: track.durationS + 12, explicit: track.explicit, artistIds: track.artistIds, releaseDate: album.releaseDate });
    ids.set(`video:${track.seedKey}`, id);
  }

  cached = { tracks, videos, albums, artists, artworks, idOf: (key) => ids.get(key) ?? null };
  return cached;
}
