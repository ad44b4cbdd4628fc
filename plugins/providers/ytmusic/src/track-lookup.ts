import { lookupEach, type OperationInput, type OperationReturn, type ProviderContext, type TrackInput } from '@opl/plugin-sdk';
import { innertube } from './innertube-client.ts';
import { parsePlayerAnswer } from './player-answer.ts';
import { mapListItem } from './track-mapper.ts';
import { videoIdOf } from './ytmusic-uri.ts';

/**
 * Songs named by link (`https://music.youtube.com/watch?v=…`, the URI this plugin gives every
 * track, and the YouTube watch and `youtu.be` links `validateUri` accepts), read one by one with
 * the InnerTube `player` endpoint: InnerTube has no several-videos read. Each distinct videoId is
 * asked once, in input order, one request at a time (the SDK's `lookupEach`); the answer has one
 * entry per input URI. A URI that names no video (playlists, albums, other services) is null
 * without a request, and so is a video YouTube Music does not have. Any failure (rate limit,
 * expired sign-in, 5xx) is thrown as the typed error every other read throws, since a partial
 * answer cannot be returned.
 */

async function readSong(ctx: ProviderContext, videoId: string): Promise<TrackInput | null> {
  const answer = await innertube(ctx, { endpoint: 'player', body: { videoId }, what: 'looking up a song', missing: 'song' });
  const item = parsePlayerAnswer(answer, videoId);
  // The player answer has no explicit flag: unknown rather than "not explicit".
  return item ? { ...mapListItem(item), explicit: null } : null;
}

export function lookupTracks(input: OperationInput<'lookupTracks'>, ctx: ProviderContext): Promise<OperationReturn<'lookupTracks'>> {
  return lookupEach(input.uris, videoIdOf, (videoId) => readSong(ctx, videoId));
}
