import { isAvailableOn, providerId, seedCatalog, type SeedTrack } from '../seed-catalog.ts';

/**
 * The seed catalogue as YouTube Music shows it. Every recording is an "Art Track" (official audio,
 * `MUSIC_VIDEO_TYPE_ATV`); every fourth one also has an official music video (`…_OMV`, its own
 * videoId, a little longer), and every seventh a user upload of it (`…_UGC`, on the uploader's
 * channel). Podcast episodes are `…_PODCAST_EPISODE`, and the seed's local files are the user's
 * uploaded music (`…_PRIVATELY_OWNED_TRACK`). Ids follow YouTube's shapes: 11-character videoIds,
 * `UC…` channels, `MPREb_…` album browse ids.
 */

export const MUSIC_ORIGIN = 'https://music.youtube.com';
export const OAUTH_ORIGIN = 'https://oauth2.googleapis.com';
export const DEVICE_PAGE_ORIGIN = 'https://www.google.com';

export type VideoType =
  | 'MUSIC_VIDEO_TYPE_ATV'
  | 'MUSIC_VIDEO_TYPE_OMV'
  | 'MUSIC_VIDEO_TYPE_UGC'
  | 'MUSIC_VIDEO_TYPE_PODCAST_EPISODE'
  | 'MUSIC_VIDEO_TYPE_PRIVATELY_OWNED_TRACK';

export interface YtArtistRef {
  readonly name: string;
  readonly channelId: string;
}

export interface YtAlbumRef {
  readonly title: string;
  readonly browseId: string;
}

export interface YtVideo {
  readonly videoId: string;
  readonly title: string;
  readonly artists: readonly YtArtistRef[];
  /** Only official audio (and uploads) name an album. */
  readonly album: YtAlbumRef | null;
  readonly durationS: number;
  readonly videoType: VideoType;
  readonly explicit: boolean;
  readonly seedKey: string | null;
  /** Search column text of videos ("1.2M views"). */
  readonly views: string | null;
}

export interface YtAlbum {
  readonly browseId: string;
  readonly title: string;
  readonly artists: readonly YtArtistRef[];
  readonly year: number;
  readonly kind: 'Album' | 'Single';
  readonly videoIds: readonly string[];
}

const UPLOADERS = ['lyricvault', 'Night Drive Covers', 'sunset tapes', 'Kazu Plays'];

export function ytId(key: string, length: number): string {
  return providerId('ytmusic', key, 'base62', length);
}

export function channelIdOf(seedArtistKey: string): string {
  return `UC${ytId(`artist:${seedArtistKey}`, 22)}`;
}

export function albumBrowseIdOf(seedAlbumKey: string): string {
  return `MPREb_${ytId(`album:${seedAlbumKey}`, 11)}`;
}

export class YtCatalog {
  readonly videos = new Map<string, YtVideo>();
  readonly albums = new Map<string, YtAlbum>();
  readonly artists = new Map<string, YtArtistRef>();
  /** seed key → the official audio's videoId (or the episode's / upload's). */
  readonly #bySeed = new Map<string, string>();
  /** seed key → official music video's videoId, where there is one. */
  readonly #omvBySeed = new Map<string, string>();

  constructor() {
    const seed = seedCatalog();
    for (const artist of seed.artists.values()) this.artists.set(channelIdOf(artist.key), { name: artist.name, channelId: channelIdOf(artist.key) });
    const artistRefs = (track: SeedTrack) => track.artistKeys.map((key) => this.artists.get(channelIdOf(key))!);
    let index = 0;
    for (const track of seed.tracks.values()) {
      const seedAlbum = seed.albums.get(track.albumKey)!;
      const album: YtAlbumRef = { title: seedAlbum.title, browseId: albumBrowseIdOf(seedAlbum.key) };
      const durationS = Math.round(track.durationMs / 1000);
      if (track.mediaType === 'episode') {
        this.#add({ videoId: ytId(track.key, 11), title: track.title, artists: artistRefs(track).slice(0, 1), album: null, durationS, videoType: 'MUSIC_VIDEO_TYPE_PODCAST_EPISODE', explicit: false, seedKey: track.key, views: null });
        continue;
      }
      if (track.mediaType === 'local_file') {
        this.#add({ videoId: ytId(track.key, 11), title: track.title, artists: artistRefs(track), album, durationS, videoType: 'MUSIC_VIDEO_TYPE_PRIVATELY_OWNED_TRACK', explicit: false, seedKey: track.key, views: null });
        continue;
      }
      if (!isAvailableOn(track, 'ytmusic')) continue;
      const audio: YtVideo = { videoId: ytId(track.key, 11), title: track.title, artists: artistRefs(track), album, durationS, videoType: 'MUSIC_VIDEO_TYPE_ATV', explicit: track.explicit, seedKey: track.key, views: null };
      this.#add(audio);
      const existing = this.albums.get(album.browseId);
      this.albums.set(album.browseId, {
        browseId: album.browseId,
        title: album.title,
        artists: seedAlbum.artistKeys.map((key) => this.artists.get(channelIdOf(key))!),
        year: Number(seedAlbum.releaseDate.slice(0, 4)),
        kind: seedAlbum.kind === 'single' ? 'Single' : 'Album',
        videoIds: [...(existing?.videoIds ?? []), audio.videoId],
      });
      if (index % 4 === 0) {
        const omv: YtVideo = { ...audio, videoId: ytId(`${track.key}:omv`, 11), album: null, durationS: durationS + 14, videoType: 'MUSIC_VIDEO_TYPE_OMV', views: `${(index % 9) + 1}.${index % 10}M views` };
        this.#add(omv);
        this.#omvBySeed.set(track.key, omv.videoId);
      }
      if (index % 7 === 3) {
        const uploader = UPLOADERS[index % UPLOADERS.length]!;
        this.#add({
          videoId: ytId(`${track.key}:ugc`, 11),
          title: `${track.title} (cover)`,
          artists: [{ name: uploader, channelId: `UC${ytId(`uploader:${uploader}`, 22)}` }],
          album: null,
          durationS: durationS + 3,
          videoType: 'MUSIC_VIDEO_TYPE_UGC',
          explicit: false,
          seedKey: null,
          views: `${(index % 90) + 10}K views`,
        });
      }
      index++;
    }
  }

  #add(video: YtVideo): void {
    this.videos.set(video.videoId, video);
    if (video.seedKey && !this.#bySeed.has(video.seedKey)) this.#bySeed.set(video.seedKey, video.videoId);
  }

  /** The official audio (or episode / upload) of a seed recording; null when YouTube Music lacks it. */
  videoIdOf(seedKey: string): string | null {
    return this.#bySeed.get(seedKey) ?? null;
  }

  musicVideoIdOf(seedKey: string): string | null {
    return this.#omvBySeed.get(seedKey) ?? null;
  }

  /** A user upload in the catalogue, for tests of `MUSIC_VIDEO_TYPE_UGC`. */
  anyUpload(): YtVideo {
    return [...this.videos.values()].find((video) => video.videoType === 'MUSIC_VIDEO_TYPE_UGC')!;
  }
}
