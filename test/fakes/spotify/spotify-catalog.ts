import { createHash } from 'node:crypto';
import { isAvailableOn, providerId, seedCatalog, type SeedAlbum, type SeedArtist, type SeedTrack } from '../seed-catalog.ts';

/**
 * The seed catalogue as the Spotify Web API shows it: base62 ids, `spotify:` URIs, TrackObject,
 * EpisodeObject, AlbumObject and ArtistObject shapes with the fields the published description
 * lists, absolute `href`s on the real API origin and `open.spotify.com` links. Recordings the seed
 * marks as unavailable on Spotify are not in this catalogue at all.
 */

export const API_ORIGIN = 'https://api.spotify.com';
export const ACCOUNTS_ORIGIN = 'https://accounts.spotify.com';
export const OPEN_ORIGIN = 'https://open.spotify.com';

export type JsonObject = Record<string, unknown>;

const PROVIDER = 'spotify';

function image(seed: string, size: number): JsonObject {
  const digest = createHash('sha1').update(`${seed}:${size}`).digest('hex').slice(0, 24);
  return { url: `https://i.scdn.co/image/ab67616d0000${size === 640 ? 'b273' : size === 300 ? '1e02' : '4851'}${digest}`, height: size, width: size };
}

export function images(seed: string): JsonObject[] {
  return [image(seed, 640), image(seed, 300), image(seed, 64)];
}

/**
 * Spotify knows some release dates only to the year or month; a few seed albums are shown that
 * way (deterministically) so readers meet every `release_date_precision`.
 */
function releaseDate(album: SeedAlbum, index: number): { release_date: string; release_date_precision: 'year' | 'month' | 'day' } {
  if (index % 9 === 4) return { release_date: album.releaseDate.slice(0, 4), release_date_precision: 'year' };
  if (index % 9 === 7) return { release_date: album.releaseDate.slice(0, 7), release_date_precision: 'month' };
  return { release_date: album.releaseDate, release_date_precision: 'day' };
}

/** The local-file URI Spotify gives an entry: `spotify:local:<artist>:<album>:<title>:<seconds>`, form-encoded. */
export function localFileUri(artist: string, album: string, title: string, durationMs: number): string {
  const part = (text: string) => encodeURIComponent(text).replace(/%20/g, '+');
  return `spotify:local:${part(artist)}:${part(album)}:${part(title)}:${Math.round(durationMs / 1000)}`;
}

export interface SpotifyCatalogEntry {
  readonly seed: SeedTrack;
  readonly uri: string;
  readonly id: string | null;
  readonly kind: 'track' | 'episode' | 'local';
}

export class SpotifyCatalog {
  readonly #byUri = new Map<string, SpotifyCatalogEntry>();
  readonly #byKey = new Map<string, SpotifyCatalogEntry>();
  readonly #albumIds = new Map<string, string>();
  readonly #albumsById = new Map<string, SeedAlbum>();
  readonly #albumIndex = new Map<string, number>();
  readonly #artistIds = new Map<string, string>();
  readonly #artistsById = new Map<string, SeedArtist>();
  readonly #albumTracks = new Map<string, SeedTrack[]>();
  readonly showId = providerId(PROVIDER, 'show:the-long-listen');

  constructor() {
    const catalog = seedCatalog();
    let index = 0;
    for (const album of catalog.albums.values()) {
      const id = providerId(PROVIDER, `album:${album.key}`);
      this.#albumIds.set(album.key, id);
      this.#albumsById.set(id, album);
      this.#albumIndex.set(album.key, index++);
    }
    for (const artist of catalog.artists.values()) {
      const id = providerId(PROVIDER, `artist:${artist.key}`);
      this.#artistIds.set(artist.key, id);
      this.#artistsById.set(id, artist);
    }
    for (const track of catalog.tracks.values()) {
      if (!isAvailableOn(track, PROVIDER)) continue;
      let entry: SpotifyCatalogEntry;
      if (track.mediaType === 'episode') {
        const id = providerId(PROVIDER, `episode:${track.key}`);
        entry = { seed: track, id, uri: `spotify:episode:${id}`, kind: 'episode' };
      } else if (track.mediaType === 'local_file') {
        const album = catalog.albums.get(track.albumKey)!;
        entry = { seed: track, id: null, uri: localFileUri(this.artistName(track.artistKeys[0]!), album.title, track.title, track.durationMs), kind: 'local' };
      } else {
        const id = providerId(PROVIDER, track.key);
        entry = { seed: track, id, uri: `spotify:track:${id}`, kind: 'track' };
        const list = this.#albumTracks.get(track.albumKey) ?? [];
        list.push(track);
        this.#albumTracks.set(track.albumKey, list);
      }
      this.#byUri.set(entry.uri, entry);
      this.#byKey.set(track.key, entry);
    }
  }

  artistName(key: string): string {
    return seedCatalog().artists.get(key)!.name;
  }

  /** The catalogue entry of a seed recording, or null when Spotify does not carry it. */
  entryForKey(key: string): SpotifyCatalogEntry | null {
    return this.#byKey.get(key) ?? null;
  }

  entryForUri(uri: string): SpotifyCatalogEntry | null {
    return this.#byUri.get(uri) ?? null;
  }

  /** Every music track on Spotify (search works over these). */
  tracks(): SpotifyCatalogEntry[] {
    return [...this.#byUri.values()].filter((entry) => entry.kind === 'track');
  }

  albumId(key: string): string {
    return this.#albumIds.get(key)!;
  }

  albumById(id: string): SeedAlbum | null {
    return this.#albumsById.get(id) ?? null;
  }

  albums(): SeedAlbum[] {
    return [...this.#albumsById.values()];
  }

  artistId(key: string): string {
    return this.#artistIds.get(key)!;
  }

  artistById(id: string): SeedArtist | null {
    return this.#artistsById.get(id) ?? null;
  }

  artists(): SeedArtist[] {
    return [...this.#artistsById.values()];
  }

  simplifiedArtist(key: string): JsonObject {
    const id = this.artistId(key);
    return { external_urls: { spotify: `${OPEN_ORIGIN}/artist/${id}` }, href: `${API_ORIGIN}/v1/artists/${id}`, id, name: this.artistName(key), type: 'artist', uri: `spotify:artist:${id}` };
  }

  artistObject(key: string): JsonObject {
    const id = this.artistId(key);
    return { ...this.simplifiedArtist(key), followers: { href: null, total: 1000 + (id.charCodeAt(0) % 50) * 37 }, genres: [], images: images(`artist:${key}`), popularity: 40 + (id.charCodeAt(1) % 50) };
  }

  simplifiedAlbum(key: string): JsonObject {
    const album = seedCatalog().albums.get(key)!;
    const id = this.albumId(key);
    return {
      album_type: album.kind,
      total_tracks: this.#albumTracks.get(key)?.length ?? 1,
      available_markets: ['DE', 'GB', 'US'],
      external_urls: { spotify: `${OPEN_ORIGIN}/album/${id}` },
      href: `${API_ORIGIN}/v1/albums/${id}`,
      id,
      images: images(`album:${key}`),
      name: album.title,
      ...releaseDate(album, this.#albumIndex.get(key) ?? 0),
      type: 'album',
      uri: `spotify:album:${id}`,
      artists: album.artistKeys.map((artistKey) => this.simplifiedArtist(artistKey)),
    };
  }

  /** The full AlbumObject (saved albums), with its first page of tracks. */
  albumObject(key: string): JsonObject {
    const album = seedCatalog().albums.get(key)!;
    const tracks = (this.#albumTracks.get(key) ?? []).map((track) => {
      const full = this.trackObject(this.#byKey.get(track.key)!);
      delete full['album'];
      delete full['external_ids'];
      delete full['popularity'];
      return full;
    });
    const id = this.albumId(key);
    return {
      ...this.simplifiedAlbum(key),
      tracks: { href: `${API_ORIGIN}/v1/albums/${id}/tracks?offset=0&limit=50`, items: tracks, limit: 50, next: null, offset: 0, previous: null, total: tracks.length },
      copyrights: [{ text: `© ${album.releaseDate.slice(0, 4)} Fake Records`, type: 'C' }],
      external_ids: { upc: album.upc },
      genres: [],
      label: 'Fake Records',
      popularity: 30,
    };
  }

  /** A TrackObject (music or local file) or an EpisodeObject, as a playlist item or search hit shows it. */
  itemObject(entry: SpotifyCatalogEntry): JsonObject {
    if (entry.kind === 'episode') return this.episodeObject(entry);
    if (entry.kind === 'local') return this.localTrackObject(entry);
    return this.trackObject(entry);
  }

  trackObject(entry: SpotifyCatalogEntry): JsonObject {
    const track = entry.seed;
    const id = entry.id!;
    return {
      album: this.simplifiedAlbum(track.albumKey),
      artists: track.artistKeys.map((key) => this.simplifiedArtist(key)),
      available_markets: ['DE', 'GB', 'US'],
      disc_number: 1,
      duration_ms: track.durationMs,
      explicit: track.explicit,
      external_ids: track.isrc ? { isrc: track.isrc } : {},
      external_urls: { spotify: `${OPEN_ORIGIN}/track/${id}` },
      href: `${API_ORIGIN}/v1/tracks/${id}`,
      id,
      is_playable: true,
      name: track.title,
      popularity: 20 + (id.charCodeAt(2) % 60),
      preview_url: null,
      track_number: track.trackNumber,
      type: 'track',
      uri: entry.uri,
      is_local: false,
    };
  }

  /** Local files: Spotify knows only the names from the file's tags; no ids, links or ISRC. */
  localTrackObject(entry: SpotifyCatalogEntry): JsonObject {
    const track = entry.seed;
    const album = seedCatalog().albums.get(track.albumKey)!;
    return {
      album: { album_type: null, artists: [], available_markets: [], external_urls: {}, href: null, id: null, images: [], name: album.title, release_date: null, release_date_precision: null, type: 'album', uri: null },
      artists: [{ external_urls: {}, href: null, id: null, name: this.artistName(track.artistKeys[0]!), type: 'artist', uri: null }],
      available_markets: [],
      disc_number: 0,
      duration_ms: track.durationMs,
      explicit: false,
      external_ids: {},
      external_urls: {},
      href: null,
      id: null,
      name: track.title,
      popularity: 0,
      preview_url: null,
      track_number: 0,
      type: 'track',
      uri: entry.uri,
      is_local: true,
    };
  }

  episodeObject(entry: SpotifyCatalogEntry): JsonObject {
    const track = entry.seed;
    const id = entry.id!;
    const show = seedCatalog().albums.get(track.albumKey)!;
    return {
      audio_preview_url: null,
      description: `${track.title}. A conversation recorded on the road.`,
      html_description: `<p>${track.title}. A conversation recorded on the road.</p>`,
      duration_ms: track.durationMs,
      explicit: track.explicit,
      external_urls: { spotify: `${OPEN_ORIGIN}/episode/${id}` },
      href: `${API_ORIGIN}/v1/episodes/${id}`,
      id,
      images: images(`episode:${track.key}`),
      is_externally_hosted: false,
      is_playable: true,
      language: 'en',
      languages: ['en'],
      name: track.title,
      release_date: show.releaseDate,
      release_date_precision: 'day',
      type: 'episode',
      uri: entry.uri,
      show: {
        available_markets: ['DE', 'GB', 'US'],
        copyrights: [],
        description: 'Stories from touring musicians.',
        html_description: '<p>Stories from touring musicians.</p>',
        explicit: false,
        external_urls: { spotify: `${OPEN_ORIGIN}/show/${this.showId}` },
        href: `${API_ORIGIN}/v1/shows/${this.showId}`,
        id: this.showId,
        images: images('show'),
        is_externally_hosted: false,
        languages: ['en'],
        media_type: 'audio',
        name: show.title,
        publisher: this.artistName(show.artistKeys[0]!),
        total_episodes: 4,
        type: 'show',
        uri: `spotify:show:${this.showId}`,
      },
    };
  }
}
