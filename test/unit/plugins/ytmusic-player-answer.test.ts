import { describe, expect, it } from 'vitest';
import { PluginError } from '@opl/plugin-sdk';
import { artistOfAuthor, parsePlayerAnswer } from '../../../plugins/providers/ytmusic/src/player-answer.ts';

/**
 * The YouTube Music plugin's reader of InnerTube `player` answers, for the shapes the fake does
 * not produce: private and login-gated videos, live streams, answers about another video, and an
 * OK status without details.
 */

const VIDEO = 'dQw4w9WgXcQ';
/** Another video's id: an answer about it is not an answer about VIDEO. */
const OTHER_VIDEO = 'jNQXAC9IVRw';

function details(extra: Record<string, unknown> = {}) {
  return { videoId: VIDEO, title: 'Song', lengthSeconds: '213', channelId: 'UCaaaaaaaaaaaaaaaaaaaaaa', author: 'Band - Topic', musicVideoType: 'MUSIC_VIDEO_TYPE_ATV', thumbnail: { thumbnails: [{ url: 'small' }, { url: 'large' }] }, ...extra };
}

function thrown(read: () => unknown): PluginError {
  try {
    read();
  } catch (error) {
    expect(error).toBeInstanceOf(PluginError);
    return error as PluginError;
  }
  throw new Error('nothing was thrown');
}

describe('parsePlayerAnswer', () => {
  it('reads the details as a list row: one artist without " - Topic", no album', () => {
    expect(parsePlayerAnswer({ playabilityStatus: { status: 'OK' }, videoDetails: details() }, VIDEO)).toEqual({
      videoId: VIDEO,
      setVideoId: null,
      title: 'Song',
      artists: [{ name: 'Band', id: 'UCaaaaaaaaaaaaaaaaaaaaaa' }],
      album: null,
      durationS: 213,
      videoType: 'MUSIC_VIDEO_TYPE_ATV',
      explicit: false,
      thumbnail: 'large',
      greyedOut: false,
    });
  });

  it('keeps names that only contain "Topic", and a live stream has no length', () => {
    expect(artistOfAuthor('Topic - Topic')).toBe('Topic');
    expect(artistOfAuthor('The Topic')).toBe('The Topic');
    expect(parsePlayerAnswer({ playabilityStatus: { status: 'OK' }, videoDetails: details({ lengthSeconds: '0' }) }, VIDEO)?.durationS).toBeNull();
  });

  it('answers null for a video it will not describe, and marks one it will not play', () => {
    for (const status of ['ERROR', 'LOGIN_REQUIRED', 'UNPLAYABLE']) expect(parsePlayerAnswer({ playabilityStatus: { status, reason: 'This video is private' } }, VIDEO)).toBeNull();
    expect(parsePlayerAnswer({ playabilityStatus: { status: 'UNPLAYABLE' }, videoDetails: details() }, VIDEO)?.greyedOut).toBe(true);
  });

  it('fails as ProviderError on an answer it cannot trust', () => {
    expect(thrown(() => parsePlayerAnswer({ playabilityStatus: { status: 'OK' } }, VIDEO)).type).toBe('ProviderError');
    expect(thrown(() => parsePlayerAnswer({}, VIDEO)).type).toBe('ProviderError');
    expect(thrown(() => parsePlayerAnswer({ playabilityStatus: { status: 'OK' }, videoDetails: details({ videoId: OTHER_VIDEO }) }, VIDEO)).type).toBe('ProviderError');
  });
});
