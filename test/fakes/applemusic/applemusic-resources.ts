import { randomUUID } from 'node:crypto';
import { songUrl, STOREFRONTS, type AppleCatalog, type CatalogMusicVideo, type CatalogSong } from './applemusic-catalog.ts';
import type { LibraryItem, LibraryPlaylist } from './applemusic-state.ts';

/**
 * Apple Music API resource objects as the fake sends them: catalog `songs` and `music-videos`,
 * `library-songs`, `library-music-videos`, `library-playlists`, `storefronts`, and Apple's error
 * document `{errors: [{id, title, detail, status, code}]}` (status and code as strings).
 */

export type Resource = Record<string, unknown>;

export class AppleApiError extends Error {
  readonly status: number;
  readonly body: { errors: Record<string, unknown>[] };
  readonly headers: Record<string, string>;
  constructor(status: number, code: string, title: string, detail: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
    super(detail);
    this.status = status;
    this.body = { errors: [{ id: randomUUID().replace(/-/g, '').toUpperCase().slice(0, 26), title, detail, status: String(status), code, ...extra }] };
    this.headers = headers;
  }
}

export const errors = {
  unauthorized: (detail: string) => new AppleApiError(401, '40100', 'Unauthenticated', detail),
  forbidden: (detail: string) => new AppleApiError(403, '40300', 'Forbidden', detail),
  notFound: (detail = 'Resource with requested id was not found') => new AppleApiError(404, '40400', 'Resource Not Found', detail),
  invalidParameter: (parameter: string, detail: string) => new AppleApiError(400, '40005', 'Invalid Parameter Value', detail, { source: { parameter } }),
  invalidBody: (detail: string) => new AppleApiError(400, '40007', 'Invalid Request Body', detail),
  rateLimited: (retryAfterS: number) => new AppleApiError(429, '42900', 'API Capacity Exceeded', 'Too many requests', {}, { 'retry-after': String(retryAfterS) }),
  server: (status: number) => new AppleApiError(status, `${status}00`, status === 503 ? 'Service Unavailable' : 'Internal Server Error', 'The server encountered an error'),
};

function artwork(url: string): Resource {
  return { width: 3000, height: 3000, url, bgColor: '1e1a17', textColor1: 'fbfbfa', textColor2: 'e3e0de', textColor3: 'ccc9c8', textColor4: 'b7b5b3' };
}

export function catalogSong(song: CatalogSong, storefront: string): Resource {
  return {
    id: song.id,
    type: 'songs',
    href: `/v1/catalog/${storefront}/songs/${song.id}`,
    attributes: {
      albumName: song.albumName,
      artistName: song.artistName,
      artwork: artwork(song.artworkUrl),
      ...(song.composerName ? { composerName: song.composerName } : {}),
      // Apple marks explicit recordings; others carry no rating at all.
      ...(song.explicit ? { contentRating: 'explicit' } : {}),
      discNumber: song.discNumber,
      durationInMillis: song.durationInMillis,
      genreNames: [...song.genreNames],
      hasLyrics: true,
      ...(song.isrc ? { isrc: song.isrc } : {}),
      name: song.name,
      playParams: { id: song.id, kind: 'song' },
      previews: [{ url: `https://audio-ssl.itunes.apple.com/itunes-assets/AudioPreview/${song.id}.m4a` }],
      releaseDate: song.releaseDate,
      trackNumber: song.trackNumber,
      url: songUrl(song, storefront),
    },
  };
}

export function catalogMusicVideo(video: CatalogMusicVideo, storefront: string): Resource {
  return {
    id: video.id,
    type: 'music-videos',
    href: `/v1/catalog/${storefront}/music-videos/${video.id}`,
    attributes: {
      artistName: video.artistName,
      artwork: artwork(video.artworkUrl),
      durationInMillis: video.durationInMillis,
      genreNames: ['Pop'],
      has4K: false,
      hasHDR: false,
      isrc: video.isrc,
      name: video.name,
      playParams: { id: video.id, kind: 'musicVideo' },
      releaseDate: video.releaseDate,
      url: `https://music.apple.com/${storefront}/music-video/${video.id}`,
    },
  };
}

/** A library song or music video; with `includeCatalog`, its `catalog` relationship carries the catalog resource. */
export function libraryItem(catalog: AppleCatalog, item: LibraryItem, storefront: string, includeCatalog: boolean): Resource {
  const isVideo = item.kind === 'music-video';
  const type = isVideo ? 'library-music-videos' : 'library-songs';
  const href = `/v1/me/library/${isVideo ? 'music-videos' : 'songs'}/${item.libraryId}`;
  const song = !isVideo && item.catalogId ? catalog.songs.get(item.catalogId) : undefined;
  const video = isVideo && item.catalogId ? catalog.musicVideos.get(item.catalogId) : undefined;
  const playParams = { id: item.libraryId, kind: isVideo ? 'musicVideo' : 'song', isLibrary: true, reporting: true, ...(item.catalogId ? { catalogId: item.catalogId } : {}) };
  let attributes: Resource;
  if (song) {
    attributes = {
      albumName: song.albumName,
      artistName: song.artistName,
      artwork: { width: 1200, height: 1200, url: song.artworkUrl },
      ...(song.explicit ? { contentRating: 'explicit' } : {}),
      discNumber: song.discNumber,
      durationInMillis: song.durationInMillis,
      genreNames: [song.genreNames[0]!],
      hasLyrics: true,
      name: song.name,
      playParams,
      releaseDate: song.releaseDate,
      trackNumber: song.trackNumber,
    };
  } else if (video) {
    attributes = { artistName: video.artistName, artwork: { width: 1200, height: 1200, url: video.artworkUrl }, durationInMillis: video.durationInMillis, genreNames: ['Pop'], name: video.name, playParams, releaseDate: video.releaseDate };
  } else {
    // An upload Apple could not match: only what the file's tags said, no artwork, no catalog.
    const upload = item.upload ?? { name: '', artistName: '', albumName: '', durationInMillis: 0 };
    attributes = { albumName: upload.albumName, artistName: upload.artistName, durationInMillis: upload.durationInMillis, genreNames: [], hasLyrics: false, name: upload.name, playParams };
  }
  const resource: Resource = { id: item.libraryId, type, href, attributes };
  if (includeCatalog) {
    const related = song ? [catalogSong(song, storefront)] : video ? [catalogMusicVideo(video, storefront)] : [];
    resource['relationships'] = { catalog: { href: `${href}/catalog`, data: related } };
  }
  return resource;
}

export function libraryPlaylist(playlist: LibraryPlaylist): Resource {
  return {
    id: playlist.id,
    type: 'library-playlists',
    href: `/v1/me/library/playlists/${playlist.id}`,
    attributes: {
      canEdit: playlist.canEdit,
      dateAdded: playlist.dateAdded,
      ...(playlist.description ? { description: { standard: playlist.description } } : {}),
      hasCatalog: playlist.globalId !== null,
      isPublic: playlist.isPublic,
      lastModifiedDate: playlist.lastModifiedDate,
      name: playlist.name,
      playParams: { id: playlist.id, kind: 'playlist', isLibrary: true, ...(playlist.globalId ? { globalId: playlist.globalId } : {}) },
    },
  };
}

export function storefront(id: string): Resource {
  const known = STOREFRONTS[id]!;
  return {
    id,
    type: 'storefronts',
    href: `/v1/storefronts/${id}`,
    attributes: { defaultLanguageTag: known.language, explicitContentPolicy: 'allowed', name: known.name, supportedLanguageTags: [...new Set([known.language, 'en-US'])] },
  };
}
