import { describe, expect, it } from 'vitest';
import { isLocalFileUri, parseSpotifyRef, playlistIdOf } from '../../../plugins/providers/spotify/src/spotify-uri.ts';
import { validateUri } from '../../../plugins/providers/spotify/src/search-ops.ts';

const ID = '4iV5W9uYEdYUVa79Axb7Rh';

describe('Spotify URIs and links', () => {
  it('parses spotify: URIs of every entity', () => {
    for (const entity of ['track', 'episode', 'album', 'artist', 'playlist', 'show'] as const) {
      expect(parseSpotifyRef(`spotify:${entity}:${ID}`)).toEqual({ entity, id: ID, uri: `spotify:${entity}:${ID}` });
    }
    expect(parseSpotifyRef('spotify:user:some.user_1')).toEqual({ entity: 'user', id: 'some.user_1', uri: 'spotify:user:some.user_1' });
  });

  it('reads the legacy owner-qualified playlist URI', () => {
    expect(parseSpotifyRef(`spotify:user:someone:playlist:${ID}`)?.uri).toBe(`spotify:playlist:${ID}`);
  });

  it('parses open.spotify.com links with locale, embed and query', () => {
    expect(parseSpotifyRef(`https://open.spotify.com/track/${ID}?si=abc123`)?.uri).toBe(`spotify:track:${ID}`);
    expect(parseSpotifyRef(`https://open.spotify.com/intl-de/album/${ID}`)?.uri).toBe(`spotify:album:${ID}`);
    expect(parseSpotifyRef(`https://open.spotify.com/embed/playlist/${ID}`)?.uri).toBe(`spotify:playlist:${ID}`);
    expect(parseSpotifyRef(`https://open.spotify.com/user/x/playlist/${ID}`)?.uri).toBe(`spotify:playlist:${ID}`);
  });

  it('refuses look-alikes', () => {
    for (const value of [
      `spotify:track:${ID.slice(1)}`,
      `spotify:track:${ID}x`,
      `spotify:song:${ID}`,
      `https://open.spotify.com.evil.test/track/${ID}`,
      `https://user@open.spotify.com/track/${ID}`,
      `https://open.spotify.com:8443/track/${ID}`,
      `ftp://open.spotify.com/track/${ID}`,
      `https://open.spotify.com/track/${ID}/extra`,
      'https://example.com/not-a-track',
      'not a uri',
      '',
    ]) {
      expect(parseSpotifyRef(value), value).toBeNull();
    }
  });

  it('recognises local-file URIs, which name nothing in the catalogue', () => {
    const local = 'spotify:local:Ines+Duarte:Afterglow:Bootleg+1:200';
    expect(isLocalFileUri(local)).toBe(true);
    expect(parseSpotifyRef(local)).toBeNull();
    expect(validateUri({ uri: local })).toEqual({ valid: false });
  });

  it('validateUri normalises tracks, albums, artists and playlists and refuses episodes', () => {
    expect(validateUri({ uri: `https://open.spotify.com/track/${ID}?si=1` })).toEqual({ valid: true, entity: 'track', id: ID, normalized_uri: `spotify:track:${ID}` });
    expect(validateUri({ uri: `spotify:playlist:${ID}` })).toMatchObject({ valid: true, entity: 'playlist' });
    expect(validateUri({ uri: `spotify:episode:${ID}` })).toEqual({ valid: false });
  });

  it('playlistIdOf accepts bare ids, URIs and links only', () => {
    expect(playlistIdOf(ID)).toBe(ID);
    expect(playlistIdOf(`spotify:playlist:${ID}`)).toBe(ID);
    expect(playlistIdOf(`https://open.spotify.com/playlist/${ID}`)).toBe(ID);
    expect(playlistIdOf(`spotify:track:${ID}`)).toBeNull();
    expect(playlistIdOf('../me/library')).toBeNull();
    expect(playlistIdOf('no-such-playlist-0000000')).toBeNull();
  });
});
