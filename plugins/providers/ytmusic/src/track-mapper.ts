import type { TrackInput } from '@opl/plugin-sdk';
import type { ParsedListItem } from './list-item-parser.ts';
import { watchUri } from './ytmusic-uri.ts';

/**
 * A YouTube Music row as a universal track. YouTube Music has no ISRCs; what matching needs to
 * tell official audio from a music video or an upload is the video type, kept in
 * `provider_metadata.videoType`. Podcast episodes and the user's own uploaded files cannot be
 * migrated; user-uploaded videos are videos, not catalogue recordings.
 */

interface Fidelity {
  readonly media_type: 'track' | 'episode' | 'video' | 'local_file' | 'unknown';
  readonly is_local: boolean;
  readonly is_migratable: boolean;
  readonly unsupported_reason: string | null;
}

export function fidelityOf(videoType: string | null): Fidelity {
  switch (videoType) {
    case 'MUSIC_VIDEO_TYPE_ATV':
    case 'MUSIC_VIDEO_TYPE_OMV':
    case 'MUSIC_VIDEO_TYPE_OFFICIAL_SOURCE_MUSIC':
    case null:
      // Official audio and official music videos are releases; matching prefers the audio.
      return { media_type: 'track', is_local: false, is_migratable: true, unsupported_reason: null };
    case 'MUSIC_VIDEO_TYPE_UGC':
      return { media_type: 'video', is_local: false, is_migratable: false, unsupported_reason: 'A user-uploaded video on YouTube, not a release in the music catalogue; other services have no equivalent to add.' };
    case 'MUSIC_VIDEO_TYPE_PODCAST_EPISODE':
      return { media_type: 'episode', is_local: false, is_migratable: false, unsupported_reason: 'A podcast episode; only music is migrated between services.' };
    case 'MUSIC_VIDEO_TYPE_PRIVATELY_OWNED_TRACK':
      return { media_type: 'local_file', is_local: true, is_migratable: false, unsupported_reason: 'A song the account uploaded to its own YouTube Music library; it exists only there.' };
    default:
      return { media_type: 'unknown', is_local: false, is_migratable: false, unsupported_reason: `An entry of a kind this plugin does not know (${videoType.slice(0, 60)}).` };
  }
}

export function mapListItem(item: ParsedListItem, position: number | null = null): TrackInput {
  const names = item.artists.map((artist) => artist.name).filter((name) => name !== '');
  const providerMetadata: Record<string, unknown> = {};
  if (item.videoType) providerMetadata['videoType'] = item.videoType;
  if (item.album?.id) providerMetadata['albumBrowseId'] = item.album.id;
  const artistIds = item.artists.map((artist) => artist.id).filter((id): id is string => id !== null);
  if (artistIds.length > 0) providerMetadata['artistChannelIds'] = artistIds;
  if (item.greyedOut) providerMetadata['unavailable'] = true;
  return {
    id: item.videoId,
    title: item.title,
    artist: names.join(', '),
    artists: names,
    album: item.album?.title || null,
    duration_s: item.durationS,
    isrc: null,
    explicit: item.explicit,
    artwork_uri: item.thumbnail,
    provider_uris: item.videoId ? { ytmusic: watchUri(item.videoId) } : {},
    ...fidelityOf(item.videoType),
    position,
    source_position: position,
    source_item_id: item.setVideoId,
    provider_metadata: providerMetadata,
  };
}
