import { isAvailableOn, providerId, seedCatalog, type SeedTrack } from '../seed-catalog.ts';

/**
 * The fake Apple Music catalogue: the shared seed recordings as catalog `songs` with Apple-style
 * numeric ids, one display `artistName` string ("A & B"), `durationInMillis`, `contentRating`,
 * artwork URL templates with `{w}x{h}`, and release dates at the precision Apple has them (a few
 * older albums know only their year). A few recordings are region-locked to the US storefront, and
 * a few music videos exist (library playlists can hold them; nothing else can take them).
 */

export const PROVIDER = 'applemusic';

/** The storefronts the fake serves, with the names `/v1/me/storefront` reports. */
export const STOREFRONTS: Readonly<Record<string, { name: string; language: string }>> = {
  us: { name: 'United States', language: 'en-US' },
  gb: { name: 'United Kingdom', language: 'en-GB' },
  de: { name: 'Germany', language: 'de-DE' },
  jp: { name: 'Japan', language: 'ja' },
  se: { name: 'Sweden', language: 'sv-SE' },
};

export interface CatalogSong {
  readonly id: string;
  readonly seedKey: string;
  readonly name: string;
  readonly artistName: string;
  readonly albumName: string;
  readonly albumId: string;
  readonly isrc: string | null;
  readonly durationInMillis: number;
  readonly explicit: boolean;
  readonly trackNumber: number;
  readonly discNumber: number;
  /** `YYYY-MM-DD`, or `YYYY` when Apple knows only the year. */
  readonly releaseDate: string;
  readonly genreNames: readonly string[];
  readonly composerName: string | null;
  readonly artworkUrl: string;
  /** Storefronts carrying the song; null: every storefront. */
  readonly storefronts: readonly string[] | null;
}

export interface CatalogMusicVideo {
  readonly id: string;
  readonly name: string;
  readonly artistName: string;
  readonly isrc: string;
  readonly durationInMillis: number;
  readonly releaseDate: string;
  readonly artworkUrl: string;
}

export interface AppleCatalog {
  readonly songs: ReadonlyMap<string, CatalogSong>;
  readonly musicVideos: ReadonlyMap<string, CatalogMusicVideo>;
  /** Seed key → catalog song id (null when Apple lacks the recording). */
  readonly idOf: (seedKey: string) => string | null;
  /** Whether the storefront carries the song. */
  readonly inStorefront: (song: CatalogSong, storefront: string) => boolean;
}

const GENRES = ['Pop', 'Alternative', 'Rock', 'Electronic', 'Singer/Songwriter', 'Indie Pop', 'Jazz', 'J-Pop'];

/** Apple joins artists as "A & B" and "A, B & C". */
export function displayArtist(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} & ${names[names.length - 1]}`;
}

function slug(text: string): string {
  return (
    text
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^\p{L}\p{N}]+/gu, '-')
      .replace(/^-+|-+$/g, '') || 'song'
  );
}

export function songUrl(song: CatalogSong, storefront: string): string {
  return `https://music.apple.com/${storefront}/album/${slug(song.albumName)}/${song.albumId}?i=${song.id}`;
}

function artwork(seed: string): string {
  return `https://is1-ssl.mzstatic.com/image/thumb/Music126/v4/${seed.slice(0, 2)}/${seed.slice(2, 4)}/${seed}/cover.jpg/{w}x{h}bb.jpg`;
}

let cached: AppleCatalog | null = null;

export function appleCatalog(): AppleCatalog {
  if (cached) return cached;
  const seed = seedCatalog();
  const songs = new Map<string, CatalogSong>();
  const musicVideos = new Map<string, CatalogMusicVideo>();
  const ids = new Map<string, string>();
  const albumIds = new Map<string, string>();
  [...seed.albums.values()].forEach((album) => albumIds.set(album.key, providerId(PROVIDER, album.key, 'digits', 10)));

  const available = [...seed.tracks.values()].filter((track: SeedTrack) => track.mediaType === 'track' && isAvailableOn(track, PROVIDER));
  available.forEach((track, index) => {
    const album = seed.albums.get(track.albumKey)!;
    const albumIndex = Number(album.key.slice(2));
    const id = providerId(PROVIDER, track.key, 'digits', 10);
    songs.set(id, {
      id,
      seedKey: track.key,
      name: track.title,
      artistName: displayArtist(track.artistKeys.map((key) => seed.artists.get(key)!.name)),
      albumName: album.title,
      albumId: albumIds.get(album.key)!,
      isrc: track.isrc,
      durationInMillis: track.durationMs,
      explicit: track.explicit,
      trackNumber: track.trackNumber,
      discNumber: 1,
      // Catalogue entries of some older albums carry only a year.
      releaseDate: albumIndex % 9 === 4 ? album.releaseDate.slice(0, 4) : album.releaseDate,
      genreNames: [GENRES[albumIndex % GENRES.length]!, 'Music'],
      composerName: index % 5 === 0 ? seed.artists.get(track.artistKeys[0]!)!.name : null,
      artworkUrl: artwork(providerId(PROVIDER, `art:${album.key}`, 'base62', 20)),
      // A handful of recordings are licensed for the US only: other storefronts cannot find them.
      storefronts: index % 41 === 17 ? ['us'] : null,
    });
    ids.set(track.key, id);
  });

  for (const song of [...songs.values()].filter((entry) => entry.isrc).slice(0, 3)) {
    const id = providerId(PROVIDER, `video:${song.seedKey}`, 'digits', 10);
    musicVideos.set(id, {
      id,
      name: `${song.name} (Official Video)`,
      artistName: song.artistName,
      isrc: `${song.isrc!.slice(0, 7)}8${song.isrc!.slice(8)}`,
      durationInMillis: song.durationInMillis + 14_000,
      releaseDate: song.releaseDate,
      artworkUrl: artwork(providerId(PROVIDER, `video-art:${song.seedKey}`, 'base62', 20)),
    });
    ids.set(`video:${song.seedKey}`, id);
  }

  cached = {
    songs,
    musicVideos,
    idOf: (key) => ids.get(key) ?? null,
    inStorefront: (song, storefront) => song.storefronts === null || song.storefronts.includes(storefront),
  };
  return cached;
}
