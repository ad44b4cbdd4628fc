import type { OperationInput, OperationReturn, ProviderContext } from '@opl/plugin-sdk';
import { videosById } from './playlist-read.operations.ts';
import { trackFromVideo } from './video-mapper.ts';
import { parseYoutubeUri } from './youtube-uris.ts';

/**
 * Videos named by URI or link (`youtube:video:…`, `youtube.com/watch?v=`, `youtu.be/`,
 * `music.youtube.com/watch?v=`, `/shorts/`, `/embed/`, parsed as `validateUri` does), read with
 * `videos.list?id=…` (snippet and contentDetails, at most 50 ids a request, 1 quota unit each) and
 * mapped as entries are. One answer per input URI, in input order: null for an id YouTube does not
 * return (unknown, deleted or private: videos.list simply leaves it out) and, with no request at
 * all, for a URI that is not a YouTube video (playlists, other services). A video that is not a
 * song (an upload outside the Music category) is still answered, marked not migratable. Any failure
 * (quota, rate limit, expired token, 5xx) is thrown as the typed error every other read throws,
 * since a partial answer cannot be returned.
 */

export async function lookupTracks(input: OperationInput<'lookupTracks'>, ctx: ProviderContext): Promise<OperationReturn<'lookupTracks'>> {
  const ids = input.uris.map((uri) => {
    const ref = parseYoutubeUri(uri);
    return ref?.entity === 'track' ? ref.id : null;
  });
  // videosById asks each distinct id once, 50 a request (so one request for any input); with no
  // video id it sends nothing.
  const videos = await videosById(ctx, ids.filter((id): id is string => id !== null), 'looking videos up by id');
  return {
    tracks: ids.map((id) => {
      const video = id === null ? undefined : videos.get(id);
      return video ? trackFromVideo(video) : null;
    }),
  };
}
