import { describe, expect, it } from 'vitest';
import { fileStem, REMOTE_ITEM_REASONS, remoteItemReason } from '../../../plugin-sdk/src/format-kit/locations.ts';
import { songLinkService } from '../../../plugin-sdk/src/format-kit/song-links.ts';

describe('songLinkService', () => {
  it('knows the song pages of Deezer, YouTube Music, YouTube and Apple Music', () => {
    expect(songLinkService('https://www.deezer.com/track/3135556')).toBe('deezer');
    expect(songLinkService('https://www.deezer.com/fr/track/3135556?utm_source=deezer')).toBe('deezer');
    expect(songLinkService('http://deezer.com/en-gb/track/1/')).toBe('deezer');
    expect(songLinkService('https://music.youtube.com/watch?v=FGBhQbmPwH8')).toBe('ytmusic');
    expect(songLinkService('https://music.youtube.com/watch?list=RDAMVM1&v=FGBhQbmPwH8&si=x')).toBe('ytmusic');
    expect(songLinkService('https://www.youtube.com/watch?v=FGBhQbmPwH8&t=42s')).toBe('youtube');
    expect(songLinkService('https://m.youtube.com/watch?feature=share&v=FGBhQbmPwH8')).toBe('youtube');
    expect(songLinkService('https://youtu.be/FGBhQbmPwH8?si=abc')).toBe('youtube');
    expect(songLinkService('https://music.apple.com/us/song/one-more-time/1440873161')).toBe('applemusic');
    expect(songLinkService('https://music.apple.com/fr/album/discovery/697194953?i=697195462')).toBe('applemusic');
    expect(songLinkService('https://itunes.apple.com/us/album/discovery/id697194953?l=fr&i=697195462')).toBe('applemusic');
  });

  it('takes no other page of those services, nor look-alike hosts, for a song', () => {
    for (const url of [
      'https://www.deezer.com/album/302127',
      'https://www.deezer.com/track/abc',
      'https://www.deezer.com/track/0',
      'https://deezer.page.link/abc123',
      'https://music.youtube.com/playlist?list=PL123',
      'https://music.youtube.com/browse/MPREb_abc',
      'https://music.youtube.com/watch?v=short',
      'https://www.youtube.com/channel/UC123',
      'https://www.youtube.com/results?search_query=daft+punk',
      'https://www.youtube.com/watch?vv=FGBhQbmPwH8',
      'https://youtu.be/FGBhQbmPwH8extra',
      'https://music.apple.com/us/album/discovery/697194953',
      'https://music.apple.com/us/playlist/x/pl.u-123',
      'https://music.apple.com/us/artist/daft-punk/5468295',
      'https://www.deezer.com.evil.example/track/1',
      'https://notyoutube.com/watch?v=FGBhQbmPwH8',
      'ftp://www.deezer.com/track/1',
      'https://www.deezer.com/track/1 and more',
      `https://www.youtube.com/watch?${'a=1&'.repeat(600)}v=FGBhQbmPwH8`,
    ]) {
      expect(songLinkService(url), url).toBeNull();
    }
  });

  it('is a song to migrate even with no name or length, and names nothing from its path', () => {
    const unnamed = { artist: '', title: '' };
    expect(remoteItemReason('https://www.deezer.com/track/3135556', unnamed)).toBeNull();
    expect(remoteItemReason('https://youtu.be/FGBhQbmPwH8', { ...unnamed, lengthUnknown: true })).toBeNull();
    // Any other address still needs both names, and a length.
    expect(remoteItemReason('https://www.deezer.com/album/302127', unnamed)).toBe(REMOTE_ITEM_REASONS.unnamed);
    expect(remoteItemReason('https://www.youtube.com/channel/UC123', { artist: 'A', title: 'B', lengthUnknown: true })).toBe(REMOTE_ITEM_REASONS.stream);
    expect(fileStem('https://www.deezer.com/track/3135556')).toBe('');
    expect(fileStem('https://www.youtube.com/watch?v=FGBhQbmPwH8')).toBe('');
    expect(fileStem('https://www.deezer.com/album/302127')).toBe('302127');
  });
});
