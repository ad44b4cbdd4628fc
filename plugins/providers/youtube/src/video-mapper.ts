import type { TrackInput } from '@opl/plugin-sdk';
import { isoDurationSeconds } from './iso-duration.ts';
import { artTrackDetails, splitVideoTitle, topicArtist } from './video-title.ts';
import { videoUri, watchUrl } from './youtube-uris.ts';

/**
 * YouTube videos → the universal Track. An entry is a `track` when it is an art track (official
 * audio from an auto-generated Topic channel); a `video` otherwise. Official music videos (Music
 * category, licensed content) stay migratable — the song is matched by its parsed title and
 * artist — while other uploads are kept in reads but marked not migratable with the reason.
 */

export const MUSIC_CATEGORY = '10';

export type VideoKind = 'art_track' | 'music_video' | 'other' | 'unavailable';

export interface VideoResource {
  readonly id?: unknown;
  readonly snippet?: {
    readonly title?: unknown;
    readonly description?: unknown;
    readonly channelId?: unknown;
    readonly channelTitle?: unknown;
    readonly categoryId?: unknown;
    readonly publishedAt?: unknown;
    readonly thumbnails?: Record<string, { url?: unknown } | undefined>;
  };
  readonly contentDetails?: { readonly duration?: unknown; readonly licensedContent?: unknown };
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** The largest thumbnail's URL. */
export function thumbnailUrl(thumbnails: Readonly<Record<string, { url?: unknown } | undefined>> | undefined): string | null {
  if (!thumbnails) return null;
  for (const size of ['maxres', 'standard', 'high', 'medium', 'default']) {
    const url = text(thumbnails[size]?.url);
    if (url) return url;
  }
  return null;
}

export function videoKind(video: VideoResource): VideoKind {
  const channelTitle = text(video.snippet?.channelTitle) ?? '';
  const music = video.snippet?.categoryId === MUSIC_CATEGORY;
  if (music && topicArtist(channelTitle)) return 'art_track';
  if (music) return 'music_video';
  return 'other';
}

export interface EntryFacts {
  /** The playlistItem id. */
  readonly itemId?: string | null;
  readonly position?: number | null;
  readonly addedAt?: string | null;
}

/** A video (from videos.list) as a Track; `entry` adds the playlist entry's facts. */
export function trackFromVideo(video: VideoResource, entry: EntryFacts = {}): TrackInput {
  const id = text(video.id) ?? '';
  const snippet = video.snippet ?? {};
  const rawTitle = text(snippet.title) ?? '';
  const channelTitle = text(snippet.channelTitle) ?? '';
  const kind = videoKind(video);
  let title = rawTitle;
  let artists: string[];
  let album: string | null = null;
  let releaseDate: string | null = null;
  if (kind === 'art_track') {
    const details = artTrackDetails(text(snippet.description) ?? '', rawTitle);
    artists = details ? [...details.artists] : [topicArtist(channelTitle)!];
    album = details?.album ?? null;
    releaseDate = details?.releaseDate ?? null;
  } else {
    const split = kind === 'music_video' ? splitVideoTitle(rawTitle) : null;
    if (split) {
      title = split.title;
      artists = [split.artist];
    } else {
      artists = channelTitle ? [channelTitle] : [];
    }
  }
  const migratable = kind !== 'other';
  return {
    id,
    title,
    artist: artists.join(', '),
    artists,
    album,
    duration_s: isoDurationSeconds(video.contentDetails?.duration),
    // YouTube knows neither ISRCs nor explicit flags.
    isrc: null,
    explicit: null,
    release_date: releaseDate,
    release_year: releaseDate ? Number(releaseDate.slice(0, 4)) : null,
    artwork_uri: thumbnailUrl(snippet.thumbnails),
    provider_uris: { youtube: videoUri(id) },
    metadata: { url: watchUrl(id) },
    media_type: kind === 'art_track' ? 'track' : 'video',
    is_migratable: migratable,
    unsupported_reason: migratable ? null : `a YouTube video outside the Music category (category ${text(snippet.categoryId) ?? 'unknown'}), not a song`,
    source_item_id: entry.itemId ?? null,
    position: entry.position ?? null,
    source_position: entry.position ?? null,
    added_at: entry.addedAt ?? null,
    provider_metadata: {
      video_kind: kind,
      category_id: text(snippet.categoryId),
      channel_id: text(snippet.channelId),
      channel_title: channelTitle || null,
      licensed_content: typeof video.contentDetails?.licensedContent === 'boolean' ? video.contentDetails.licensedContent : null,
    },
  };
}

/** An entry whose video is gone (deleted or private): kept in order, never migratable. */
export function unavailableEntry(videoId: string, title: string, entry: EntryFacts): TrackInput {
  return {
    id: videoId,
    title,
    artist: '',
    provider_uris: { youtube: videoUri(videoId) },
    media_type: 'video',
    is_migratable: false,
    unsupported_reason: 'the YouTube video is deleted or private',
    source_item_id: entry.itemId ?? null,
    position: entry.position ?? null,
    source_position: entry.position ?? null,
    added_at: entry.addedAt ?? null,
    provider_metadata: { video_kind: 'unavailable' },
  };
}
