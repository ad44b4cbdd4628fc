import { createHash } from 'node:crypto';
import { isAvailableOn, providerId, seedCatalog, type SeedAlbum, type SeedArtist, type SeedTrack } from '../seed-catalog.ts';

/**
 * The seed catalogue as Deezer sees it: numeric ids for tracks, albums and artists, and the
 * object shapes of the API — the full track (`GET /track/{id}`, `/track/isrc:…`: ISRC, track and
 * disc numbers, release date, contributors), the list form used in playlists, favourites and
 * search results (no numbers, no contributors, ISRC only where Deezer lists it), albums and
 * artists. Only music recordings Deezer carries are here (no podcast episodes, no local files).
 */

export const API_ORIGIN = 'https://api.deezer.com';
export const CONNECT_ORIGIN = 'https://connect.deezer.com';
export const WEB_ORIGIN = 'https://www.deezer.com';
export const IMAGE_ORIGIN = 'https://e-cdns-images.dzcdn.net';

export type JsonObject = Record<string, unknown>;

/** Deezer ids are positive integers; these are stable per seed key. */
export function numericId(key: string, length = 9): number {
  return Number(providerId('deezer', key, 'digits', length));
}

/** Deezer names images by an md5 of their own; any stable hex digest does. */
function md5Like(key: string): string {
  return createHash('md5').update(key).digest('hex');
}

function cover(kind: 'cover' | 'artist' | 'playlist', md5: string, size: string): string {
  return `${IMAGE_ORIGIN}/images/${kind}/${md5}/${size}-000000-80-0-0.jpg`;
}

export class DeezerCatalog {
  readonly tracksById = new Map<number, SeedTrack>();
  readonly trackIdByKey = new Map<string, number>();
  readonly albumsById = new Map<number, SeedAlbum>();
  readonly artistsById = new Map<number, SeedArtist>();

  constructor() {
    const seed = seedCatalog();
    for (const track of seed.tracks.values()) {
      if (track.mediaType !== 'track' || !isAvailableOn(track, 'deezer')) continue;
      const id = numericId(`track:${track.key}`);
      this.tracksById.set(id, track);
      this.trackIdByKey.set(track.key, id);
    }
    for (const album of seed.albums.values()) this.albumsById.set(numericId(`album:${album.key}`), album);
    for (const artist of seed.artists.values()) this.artistsById.set(numericId(`artist:${artist.key}`, 7), artist);
  }

  albumId(key: string): number {
    return numericId(`album:${key}`);
  }

  artistId(key: string): number {
    return numericId(`artist:${key}`, 7);
  }

  trackIdOf(seedKey: string): number | null {
    return this.trackIdByKey.get(seedKey) ?? null;
  }

  findByIsrc(isrc: string): number | null {
    for (const [id, track] of this.tracksById) if (track.isrc === isrc) return id;
    return null;
  }

  playlistPictures(id: number): JsonObject {
    const md5 = md5Like(`playlist:${id}`);
    return { picture_small: cover('playlist', md5, '56x56'), picture_medium: cover('playlist', md5, '250x250'), picture_big: cover('playlist', md5, '500x500'), picture_xl: cover('playlist', md5, '1000x1000'), md5_image: md5, picture_type: 'playlist' };
  }

  artistObject(key: string, full = false): JsonObject {
    const artist = seedCatalog().artists.get(key)!;
    const id = this.artistId(key);
    const md5 = md5Like(`artist:${key}`);
    const base: JsonObject = { id, name: artist.name, link: `${WEB_ORIGIN}/artist/${id}`, picture: `${API_ORIGIN}/artist/${id}/image`, picture_small: cover('artist', md5, '56x56'), picture_medium: cover('artist', md5, '250x250'), picture_big: cover('artist', md5, '500x500'), picture_xl: cover('artist', md5, '1000x1000'), tracklist: `${API_ORIGIN}/artist/${id}/top?limit=50`, type: 'artist' };
    if (full) Object.assign(base, { share: `${WEB_ORIGIN}/artist/${id}`, nb_album: [...seedCatalog().albums.values()].filter((album) => album.artistKeys.includes(key)).length, nb_fan: 1000 + (id % 50_000), radio: true });
    return base;
  }

  albumObject(key: string, full = false): JsonObject {
    const album = seedCatalog().albums.get(key)!;
    const id = this.albumId(key);
    const md5 = md5Like(`album:${key}`);
    const base: JsonObject = {
      id,
      title: album.title,
      link: `${WEB_ORIGIN}/album/${id}`,
      cover: `${API_ORIGIN}/album/${id}/image`,
      cover_small: cover('cover', md5, '56x56'),
      cover_medium: cover('cover', md5, '250x250'),
      cover_big: cover('cover', md5, '500x500'),
      cover_xl: cover('cover', md5, '1000x1000'),
      md5_image: md5,
      release_date: album.releaseDate,
      tracklist: `${API_ORIGIN}/album/${id}/tracks`,
      type: 'album',
    };
    if (full) {
      const tracks = [...this.tracksById.entries()].filter(([, track]) => track.albumKey === key);
      Object.assign(base, {
        upc: album.upc,
        record_type: album.kind === 'single' ? 'single' : album.kind === 'compilation' ? 'compile' : 'album',
        nb_tracks: tracks.length,
        duration: tracks.reduce((total, [, track]) => total + Math.round(track.durationMs / 1000), 0),
        explicit_lyrics: tracks.some(([, track]) => track.explicit),
        artist: this.artistObject(album.artistKeys[0]!),
        label: 'Fake Records',
      });
    }
    return base;
  }

  /**
   * A track. `form`: `full` for `GET /track/…`; `listed` for playlists and favourites (ISRC
   * included, no numbers or contributors); `search` for search hits (no ISRC either).
   */
  trackObject(id: number, form: 'full' | 'listed' | 'search'): JsonObject {
    const track = this.tracksById.get(id)!;
    const title = track.title;
    const version = /\(([^)]+)\)$/.exec(title)?.[0] ?? '';
    const base: JsonObject = {
      id,
      readable: true,
      title,
      title_short: version ? title.slice(0, -version.length).trim() : title,
      title_version: version,
      link: `${WEB_ORIGIN}/track/${id}`,
      duration: Math.round(track.durationMs / 1000),
      rank: 100_000 + (id % 800_000),
      explicit_lyrics: track.explicit,
      explicit_content_lyrics: track.explicit ? 1 : 0,
      explicit_content_cover: 2,
      preview: `https://cdnt-preview.dzcdn.net/api/1/1/${id}.mp3`,
      md5_image: md5Like(`album:${track.albumKey}`),
      artist: this.artistObject(track.artistKeys[0]!),
      album: this.albumObject(track.albumKey),
      type: 'track',
    };
    if (form !== 'search' && track.isrc) base['isrc'] = track.isrc;
    if (form === 'full') {
      const album = seedCatalog().albums.get(track.albumKey)!;
      Object.assign(base, {
        share: `${WEB_ORIGIN}/track/${id}`,
        track_position: track.trackNumber,
        disk_number: 1,
        release_date: album.releaseDate,
        bpm: 0,
        gain: -8.5,
        available_countries: ['DE', 'FR', 'GB', 'US'],
        contributors: track.artistKeys.map((key, index) => ({ ...this.artistObject(key), role: index === 0 ? 'Main' : 'Featured' })),
        artist: this.artistObject(track.artistKeys[0]!, true),
        album: this.albumObject(track.albumKey),
      });
    }
    return base;
  }

  /** Deezer's search: every word of each field must appear in it (case-insensitive). */
  searchTracks(filters: { text: string; artist: string | null; track: string | null; album: string | null }): number[] {
    const seed = seedCatalog();
    const words = (value: string) => value.toLowerCase().split(/\s+/).filter(Boolean);
    const hasAll = (haystack: string, needle: string | null) => needle === null || words(needle).every((word) => haystack.toLowerCase().includes(word));
    const hits: number[] = [];
    for (const [id, track] of this.tracksById) {
      const artists = track.artistKeys.map((key) => seed.artists.get(key)!.name).join(' ');
      const album = seed.albums.get(track.albumKey)!.title;
      const all = `${track.title} ${artists} ${album}`;
      if (filters.text && !hasAll(all, filters.text)) continue;
      if (!hasAll(artists, filters.artist) || !hasAll(track.title, filters.track) || !hasAll(album, filters.album)) continue;
      hits.push(id);
    }
    return hits;
  }

  searchAlbums(filters: { text: string; artist: string | null; album: string | null }): number[] {
    const seed = seedCatalog();
    const hasAll = (haystack: string, needle: string | null) => needle === null || needle.toLowerCase().split(/\s+/).filter(Boolean).every((word) => haystack.toLowerCase().includes(word));
    const hits: number[] = [];
    for (const [id, album] of this.albumsById) {
      const artists = album.artistKeys.map((key) => seed.artists.get(key)!.name).join(' ');
      if (filters.text && !hasAll(`${album.title} ${artists}`, filters.text)) continue;
      if (!hasAll(artists, filters.artist) || !hasAll(album.title, filters.album)) continue;
      hits.push(id);
    }
    return hits;
  }

  searchArtists(text: string): number[] {
    const needle = text.toLowerCase().trim();
    return [...this.artistsById.entries()].filter(([, artist]) => needle !== '' && artist.name.toLowerCase().includes(needle)).map(([id]) => id);
  }
}
