import type { YtCatalog, YtVideo } from './ytmusic-catalog.ts';
import { googleError, json, MESSAGES, responseContext, type Reply } from './ytmusic-responses.ts';

/**
 * InnerTube's `player` endpoint (`POST /youtubei/v1/player` with `{videoId}`), as ytmusicapi's
 * `get_song` reads it: `playabilityStatus`, `videoDetails` (title, `lengthSeconds` as a string,
 * one channel as `author` / `channelId`, `musicVideoType`, thumbnails) and a microformat. The
 * streaming data is left out: nothing a lookup reads. Like the real service, an unknown id is not
 * an HTTP error but a 200 with status `ERROR` and no `videoDetails`; a greyed-out video is
 * `UNPLAYABLE` with its details; only a body without a videoId is refused (400).
 */

const FALLBACK_PUBLISH_DATE = '2021-03-14';

/** Who the player names as the video's channel: an Art Track's auto-generated "<Artist> - Topic" channel, else the artist or uploader. */
function author(video: YtVideo): string {
  const primary = video.artists[0]?.name ?? 'Unknown';
  return video.videoType === 'MUSIC_VIDEO_TYPE_ATV' ? `${primary} - Topic` : primary;
}

function thumbnails(videoId: string): unknown {
  const base = `https://i.ytimg.com/vi/${videoId}`;
  return { thumbnails: [{ url: `${base}/default.jpg`, width: 120, height: 90 }, { url: `${base}/hqdefault.jpg`, width: 480, height: 360 }, { url: `${base}/maxresdefault.jpg`, width: 1280, height: 720 }] };
}

function videoDetails(video: YtVideo): Record<string, unknown> {
  return {
    videoId: video.videoId,
    title: video.title,
    lengthSeconds: String(video.durationS),
    channelId: video.artists[0]?.channelId ?? '',
    isOwnerViewing: false,
    isCrawlable: true,
    thumbnail: thumbnails(video.videoId),
    allowRatings: true,
    viewCount: '104729',
    author: author(video),
    isPrivate: false,
    isUnpluggedCorpus: false,
    musicVideoType: video.videoType,
    isLiveContent: false,
  };
}

function microformat(catalog: YtCatalog, video: YtVideo): unknown {
  const year = video.album ? catalog.albums.get(video.album.browseId)?.year : undefined;
  const publishDate = year ? `${year}-01-01` : FALLBACK_PUBLISH_DATE;
  return {
    microformatDataRenderer: {
      urlCanonical: `https://music.youtube.com/watch?v=${video.videoId}`,
      title: `${video.title} - YouTube Music`,
      description: `Provided to YouTube by the fake catalogue\n\n${video.title} · ${video.artists.map((artist) => artist.name).join(' · ')}`,
      category: 'Music',
      publishDate,
      uploadDate: publishDate,
      pageOwnerDetails: { name: author(video), externalChannelId: video.artists[0]?.channelId ?? '' },
      videoDetails: { externalVideoId: video.videoId, durationSeconds: String(video.durationS) },
    },
  };
}

export function playerAnswer(catalog: YtCatalog, unavailable: ReadonlySet<string>, body: Record<string, unknown>): Reply {
  const videoId = body['videoId'];
  if (typeof videoId !== 'string' || videoId === '') return googleError(400, MESSAGES.invalidArgument);
  const video = catalog.videos.get(videoId);
  if (!video) {
    return json(200, { responseContext: responseContext(), playabilityStatus: { status: 'ERROR', reason: 'Video unavailable', errorScreen: { playerErrorMessageRenderer: { reason: { simpleText: 'Video unavailable' } } } } });
  }
  const playabilityStatus = unavailable.has(videoId) ? { status: 'UNPLAYABLE', reason: 'This video is not available' } : { status: 'OK', playableInEmbed: true };
  return json(200, { responseContext: responseContext(), playabilityStatus, videoDetails: videoDetails(video), microformat: microformat(catalog, video) });
}
