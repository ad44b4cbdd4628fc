import { describe, expect, it } from 'vitest';
import { classifyLocation, fileStem, fileUrlPath, PROVIDER_ITEM_REASONS, providerItemOf, providerItemReason, REMOTE_ITEM_REASONS, remoteItemReason, webUrlOf } from '../../../plugin-sdk/src/format-kit/locations.ts';
import { orderedProviders, pickSourceUri, providerOfUri, trackSourceUri } from '../../../plugin-sdk/src/format-kit/source-uri.ts';

describe('classifyLocation', () => {
  it('classifies what a location line names', () => {
    expect(classifyLocation('https://open.spotify.com/track/abc?si=1')).toEqual({ kind: 'provider', provider: 'spotify', uri: 'spotify:track:abc', item: 'track' });
    expect(classifyLocation('https://open.spotify.com/intl-de/track/abc')).toEqual({ kind: 'provider', provider: 'spotify', uri: 'spotify:track:abc', item: 'track' });
    expect(classifyLocation('https://open.spotify.com/album/abc')).toEqual({ kind: 'provider', provider: 'spotify', uri: 'spotify:album:abc', item: 'album' });
    expect(classifyLocation('https://tidal.com/track/5/')).toEqual({ kind: 'provider', provider: 'tidal', uri: 'tidal:track:5', item: 'track' });
    expect(classifyLocation('https://listen.tidal.com/browse/track/77')).toEqual({ kind: 'provider', provider: 'tidal', uri: 'tidal:track:77', item: 'track' });
    expect(classifyLocation('rtsp://radio.example/live')).toEqual({ kind: 'remote', url: 'rtsp://radio.example/live' });
    expect(classifyLocation('C:\\a.mp3')).toEqual({ kind: 'local', path: 'C:\\a.mp3' });
    expect(classifyLocation('c:/a.mp3')).toEqual({ kind: 'local', path: 'c:/a.mp3' });
    expect(classifyLocation('file://localhost/etc/a%2.mp3')).toEqual({ kind: 'local', path: '/etc/a%2.mp3' });
    expect(classifyLocation('file://nas/share/a.mp3')).toEqual({ kind: 'local', path: '//nas/share/a.mp3' });
    expect(classifyLocation('deezer:track:1')).toEqual({ kind: 'provider', provider: 'deezer', uri: 'deezer:track:1', item: 'track' });
    expect(classifyLocation('https://listen.tidal.com/album/111/track/22222')).toEqual({ kind: 'provider', provider: 'tidal', uri: 'tidal:track:22222', item: 'track' });
    expect(classifyLocation('applemusic:library-song:i.abc123')).toEqual({ kind: 'provider', provider: 'applemusic', uri: 'applemusic:library-song:i.abc123', item: 'track' });
  });

  it('names a provider only for a <provider>:<type>:<id> URI, never for a file name with a colon', () => {
    expect(classifyLocation('intro:demo.mp3')).toEqual({ kind: 'other', text: 'intro:demo.mp3' });
    expect(classifyLocation('mix:part:2.mp3')).toEqual({ kind: 'other', text: 'mix:part:2.mp3' });
    expect(classifyLocation('live:paris')).toEqual({ kind: 'other', text: 'live:paris' });
    expect(classifyLocation('youtube:video:dQw4w9WgXcQ')).toEqual({ kind: 'provider', provider: 'youtube', uri: 'youtube:video:dQw4w9WgXcQ', item: 'track' });
  });

  it("keeps an unescaped # and ? in a file: URL's file name when asked (playlist lines)", () => {
    const lines = { fileUrls: 'as-written' } as const;
    expect(classifyLocation('file:///C:/Music/Track #1.mp3', lines)).toEqual({ kind: 'local', path: 'C:/Music/Track #1.mp3' });
    expect(classifyLocation('file:///home/me/What?.mp3', lines)).toEqual({ kind: 'local', path: '/home/me/What?.mp3' });
    expect(classifyLocation('file:///home/me/%231%20hit.mp3', lines)).toEqual({ kind: 'local', path: '/home/me/#1 hit.mp3' });
    expect(fileUrlPath('file://localhost/C:/Mix%20#2/a.mp3', lines)).toBe('C:/Mix #2/a.mp3');
    // As a URI (the default: XSPF, iTunes), they end the path.
    expect(classifyLocation('file:///C:/Music/Track #1.mp3')).toEqual({ kind: 'local', path: 'C:/Music/Track ' });
  });

  it('reads UNC, relative and file:// paths as local files', () => {
    expect(classifyLocation('\\\\nas\\music\\a.flac')).toEqual({ kind: 'local', path: '\\\\nas\\music\\a.flac' });
    expect(classifyLocation('Music/a b.mp3')).toEqual({ kind: 'local', path: 'Music/a b.mp3' });
    expect(classifyLocation('/home/me/a.mp3')).toEqual({ kind: 'local', path: '/home/me/a.mp3' });
    expect(classifyLocation('file:///C:/My%20Music/a.mp3')).toEqual({ kind: 'local', path: 'C:/My Music/a.mp3' });
    expect(classifyLocation('FILE:///home/x.mp3#t=1')).toEqual({ kind: 'local', path: '/home/x.mp3' });
  });

  it('reads network-share URLs as local files (a UNC path written as a URL), kept as written and named by their file', () => {
    for (const url of ['smb://nas/Music/Daft%20Punk%20-%20Aerodynamic.mp3', 'SMB://nas/a.mp3', 'cifs://nas/a.mp3', 'nfs://nas/export/a.flac', 'afp://mac.local/Music/a.m4a']) {
      expect(classifyLocation(url)).toEqual({ kind: 'local', path: url });
    }
    expect(fileStem('smb://nas/Music/Daft%20Punk%20-%20Aerodynamic.mp3')).toBe('Daft Punk - Aerodynamic');
    // A file server reached over the web or FTP is still a remote address.
    expect(classifyLocation('ftp://files.example/a.mp3')).toEqual({ kind: 'remote', url: 'ftp://files.example/a.mp3' });
    expect(classifyLocation('smbx://nas/a.mp3')).toEqual({ kind: 'remote', url: 'smbx://nas/a.mp3' });
  });

  it('reads Android content URIs as local files on the phone, named by the file inside a document id', () => {
    for (const uri of ['content://media/external/audio/media/1234', 'CONTENT://com.android.externalstorage.documents/document/primary%3AMusic%2FAir%2FSexy%20Boy.mp3']) {
      expect(classifyLocation(uri)).toEqual({ kind: 'local', path: uri });
    }
    expect(fileStem('content://com.android.externalstorage.documents/document/primary%3AMusic%2FAir%2FAir%20-%20Sexy%20Boy.mp3')).toBe('Air - Sexy Boy');
    // A media-store number names nothing.
    expect(fileStem('content://media/external/audio/media/1234')).toBe('');
  });

  it('leaves other URIs to the format', () => {
    expect(classifyLocation('urn:isbn:123')).toEqual({ kind: 'other', text: 'urn:isbn:123' });
    expect(classifyLocation('tag:example.com,2024:x')).toEqual({ kind: 'other', text: 'tag:example.com,2024:x' });
    expect(classifyLocation('C:song.mp3')).toEqual({ kind: 'other', text: 'C:song.mp3' });
    expect(classifyLocation('spotify:track:a b')).toEqual({ kind: 'other', text: 'spotify:track:a b' });
  });

  it('never throws on a malformed percent escape', () => {
    expect(fileUrlPath('file:///a%zz.mp3')).toBe('/a%zz.mp3');
  });
});

describe('classifyLocation: web links players and apps copy', () => {
  const track = (provider: string, uri: string) => ({ kind: 'provider', provider, uri, item: 'track' });

  it("reads TIDAL's \"Copy link\" form (a trailing /u) as the track", () => {
    expect(classifyLocation('https://tidal.com/track/53796003/u')).toEqual(track('tidal', 'tidal:track:53796003'));
    expect(classifyLocation('https://tidal.com/browse/track/53796003/u')).toEqual(track('tidal', 'tidal:track:53796003'));
    expect(classifyLocation('https://listen.tidal.com/track/53796003/u?x=1')).toEqual(track('tidal', 'tidal:track:53796003'));
    expect(classifyLocation('https://tidal.com/track/53796003/u/')).toEqual(track('tidal', 'tidal:track:53796003'));
    // Not a TIDAL track: any other trailing segment.
    expect(classifyLocation('https://tidal.com/track/53796003/v')).toEqual({ kind: 'remote', url: 'https://tidal.com/track/53796003/v' });
  });

  it("reads Spotify's embed and play.spotify.com links as the track", () => {
    expect(classifyLocation('https://open.spotify.com/embed/track/4uLU6hMCjMI75M1A2tKUQC')).toEqual(track('spotify', 'spotify:track:4uLU6hMCjMI75M1A2tKUQC'));
    expect(classifyLocation('https://open.spotify.com/intl-fr/embed/track/4uLU6hMCjMI75M1A2tKUQC?utm_source=x')).toEqual(track('spotify', 'spotify:track:4uLU6hMCjMI75M1A2tKUQC'));
    expect(classifyLocation('https://play.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC')).toEqual(track('spotify', 'spotify:track:4uLU6hMCjMI75M1A2tKUQC'));
    expect(classifyLocation('https://evil.example/open.spotify.com/track/abc')).toEqual({ kind: 'remote', url: 'https://evil.example/open.spotify.com/track/abc' });
  });

  it('reads Spotify and TIDAL links to what is not a song as those URIs, so readers say what they name', () => {
    const link = (provider: string, uri: string, item: string) => ({ kind: 'provider', provider, uri, item });
    expect(classifyLocation('https://play.spotify.com/album/4uLU6hMCjMI75M1A2tKUQC')).toEqual(link('spotify', 'spotify:album:4uLU6hMCjMI75M1A2tKUQC', 'album'));
    expect(classifyLocation('https://open.spotify.com/intl-de/playlist/37i9dQZF1DXcBWIGoYBM5M?si=x')).toEqual(link('spotify', 'spotify:playlist:37i9dQZF1DXcBWIGoYBM5M', 'playlist'));
    expect(classifyLocation('https://open.spotify.com/artist/4tZwfgrHOc3mvqYlEYSvVi')).toEqual(link('spotify', 'spotify:artist:4tZwfgrHOc3mvqYlEYSvVi', 'artist'));
    expect(classifyLocation('https://open.spotify.com/episode/512ojhOuo1ktJprKbVcKyQ')).toEqual(link('spotify', 'spotify:episode:512ojhOuo1ktJprKbVcKyQ', 'episode'));
    expect(classifyLocation('https://open.spotify.com/show/5CfCWKI5pZ28U0uOzXkDHe')).toEqual(link('spotify', 'spotify:show:5CfCWKI5pZ28U0uOzXkDHe', 'show'));
    expect(classifyLocation('https://open.spotify.com/user/some.user_name-1')).toEqual(link('spotify', 'spotify:user:some.user_name-1', 'user'));
    expect(classifyLocation('https://tidal.com/browse/album/77646169/u')).toEqual(link('tidal', 'tidal:album:77646169', 'album'));
    expect(classifyLocation('https://listen.tidal.com/artist/3346')).toEqual(link('tidal', 'tidal:artist:3346', 'artist'));
    expect(classifyLocation('https://tidal.com/browse/playlist/0c5b2c1e-8a4f-4f57-9d43-4b1b5f0d2c7a')).toEqual(link('tidal', 'tidal:playlist:0c5b2c1e-8a4f-4f57-9d43-4b1b5f0d2c7a', 'playlist'));
    expect(classifyLocation('https://tidal.com/browse/mix/0016a7d6a1e4c2f0b0e1cf3a2bd1e5')).toEqual(link('tidal', 'tidal:mix:0016a7d6a1e4c2f0b0e1cf3a2bd1e5', 'mix'));
    // Only the services' own hosts and shapes: anything else stays an address.
    expect(classifyLocation('https://open.spotify.com/genre/pop')).toEqual({ kind: 'remote', url: 'https://open.spotify.com/genre/pop' });
    expect(classifyLocation('https://tidal.com/browse/video/12345')).toEqual({ kind: 'remote', url: 'https://tidal.com/browse/video/12345' });
    expect(classifyLocation('https://tidal.com.evil.example/browse/album/1')).toEqual({ kind: 'remote', url: 'https://tidal.com.evil.example/browse/album/1' });
    // The writers' web URLs stay track-only (SPEC: track URIs become web URLs).
    expect(webUrlOf('spotify:album:4uLU6hMCjMI75M1A2tKUQC')).toBeNull();
  });
});

describe('classifyLocation: what a provider URI names', () => {
  it('reads a Spotify local-file URI as a local file named by it', () => {
    expect(classifyLocation('spotify:local:Daft+Punk:Discovery:One+More+Time:320')).toEqual({
      kind: 'local_file',
      provider: 'spotify',
      uri: 'spotify:local:Daft+Punk:Discovery:One+More+Time:320',
      artist: 'Daft Punk',
      album: 'Discovery',
      title: 'One More Time',
      seconds: 320,
    });
    expect(classifyLocation('spotify:local:::Caf%C3%A9+Song:')).toMatchObject({ kind: 'local_file', artist: '', album: '', title: 'Café Song', seconds: null });
    // Malformed: still a file on another device, naming nothing.
    expect(classifyLocation('spotify:local:broken')).toMatchObject({ kind: 'local_file', artist: '', title: '', seconds: null });
    expect(classifyLocation('spotify:local:A:B:C:99999999')).toMatchObject({ kind: 'local_file', seconds: null });
  });

  it('says whether a provider URI names a track, an episode or a collection', () => {
    expect(classifyLocation('spotify:album:1ATL5GLyefJaxhQzSPVrLX')).toEqual({ kind: 'provider', provider: 'spotify', uri: 'spotify:album:1ATL5GLyefJaxhQzSPVrLX', item: 'album' });
    expect(classifyLocation('spotify:playlist:37i9dQZF1DXcBWIGoYBM5M')).toMatchObject({ kind: 'provider', item: 'playlist' });
    expect(classifyLocation('spotify:artist:4tZwfgrHOc3mvqYlEYSvVi')).toMatchObject({ kind: 'provider', item: 'artist' });
    expect(classifyLocation('spotify:show:abc')).toMatchObject({ kind: 'provider', item: 'show' });
    expect(classifyLocation('spotify:user:someone')).toMatchObject({ kind: 'provider', item: 'user' });
    expect(classifyLocation('tidal:album:123')).toMatchObject({ kind: 'provider', provider: 'tidal', item: 'album' });
    expect(classifyLocation('spotify:episode:512ojhOuo1ktJprKbVcKyQ')).toMatchObject({ kind: 'provider', item: 'episode' });
    expect(providerItemOf('applemusic:library-playlist:p.1')).toBe('playlist');
    expect(providerItemOf('applemusic:song:1')).toBe('track');
    expect(providerItemOf('youtube:video:x')).toBe('track');
    expect(providerItemOf('deezer:whatever:1')).toBe('track');
  });

  it('gives the reason an item that is no track is not migrated', () => {
    expect(providerItemReason('track')).toBeNull();
    expect(providerItemReason('album')).toBe(PROVIDER_ITEM_REASONS.album);
    expect(providerItemReason('album')).toMatch(/^album link: .*not a song$/);
    expect(providerItemReason('playlist')).toMatch(/^playlist link: /);
    expect(providerItemReason('episode')).toMatch(/^podcast episode: /);
  });
});

describe('fileStem', () => {
  it('names files by their last segment', () => {
    expect(fileStem('\\\\srv\\x\\A - B.flac')).toBe('A - B');
    expect(fileStem('http://h/x/song.mp3?q=1')).toBe('song');
    expect(fileStem('.hidden')).toBe('.hidden');
  });

  it('keeps # and ? in a path, decodes a URL segment and names a path-less URL by its host', () => {
    expect(fileStem('C:/Music/Track #1.mp3')).toBe('Track #1');
    expect(fileStem('/home/me/What?.ogg')).toBe('What?');
    expect(fileStem('http://h/Daft%20Punk%20-%20Aerodynamic.mp3#t=1')).toBe('Daft Punk - Aerodynamic');
    expect(fileStem('http://h/bad%zz.mp3')).toBe('bad%zz');
    expect(fileStem('http://h/a%0Ab.mp3')).toBe('a%0Ab');
    expect(fileStem('http://stream.example.com:8000/')).toBe('stream.example.com:8000');
    expect(fileStem('http://user:secret@stream.example.com:8000')).toBe('stream.example.com:8000');
  });
});

describe('remoteItemReason', () => {
  const named = { artist: 'Daft Punk', title: 'One More Time' };

  it('takes a remote file named by artist and title, with a length, for a song', () => {
    expect(remoteItemReason('http://music.example/daft-punk/one-more-time.mp3', named)).toBeNull();
    expect(remoteItemReason('https://www.youtube.com/watch?v=FGBhQbmPwH8', { ...named, lengthUnknown: false })).toBeNull();
  });

  it('calls streams, playlist links and unnamed addresses by their reason', () => {
    expect(remoteItemReason('http://stream.example.com:8000/live', { ...named, lengthUnknown: true })).toBe(REMOTE_ITEM_REASONS.stream);
    expect(remoteItemReason('rtsp://radio.example/live', named)).toBe(REMOTE_ITEM_REASONS.stream);
    expect(remoteItemReason('mms://radio.example/station', named)).toBe(REMOTE_ITEM_REASONS.stream);
    expect(remoteItemReason('http://stream.example.com/radio.asx', named)).toBe(REMOTE_ITEM_REASONS.playlist);
    expect(remoteItemReason('http://example.com/live/bbc1.m3u8?token=1', named)).toBe(REMOTE_ITEM_REASONS.playlist);
    expect(remoteItemReason('http://radio.example/listen.pls/', named)).toBe(REMOTE_ITEM_REASONS.playlist);
    expect(remoteItemReason('http://icecast.example/fip.mp3', { artist: '', title: 'Radio FIP' })).toBe(REMOTE_ITEM_REASONS.unnamed);
    expect(remoteItemReason('http://music.example/a.mp3', { artist: 'Daft Punk', title: ' ' })).toBe(REMOTE_ITEM_REASONS.unnamed);
  });
});

describe('webUrlOf', () => {
  it('writes Spotify and TIDAL track URIs as web URLs, nothing else', () => {
    expect(webUrlOf('spotify:track:abc')).toBe('https://open.spotify.com/track/abc');
    expect(webUrlOf('tidal:track:5')).toBe('https://tidal.com/browse/track/5');
    expect(webUrlOf('spotify:track:a b')).toBeNull();
    expect(webUrlOf('spotify:album:abc')).toBeNull();
    expect(webUrlOf('deezer:track:1')).toBeNull();
  });
});

describe('provider URIs', () => {
  it('names the provider of a provider-style URI only', () => {
    expect(providerOfUri('spotify:track:abc')).toBe('spotify');
    expect(providerOfUri('deezer:track:1')).toBe('deezer');
    for (const uri of ['https://x.example/a', 'urn:isbn:1', 'tag:a,2024:b', 'file:/x', 'Spotify:track:1', 'x:y', 'spotify:track:a b', 'spotify://x']) expect(providerOfUri(uri)).toBeNull();
  });

  it('names no provider for a URI longer than provider_uris may hold, so readers keep it as data', () => {
    const atLimit = `deezer:track:${'1'.repeat(2_000 - 'deezer:track:'.length)}`;
    expect(providerOfUri(atLimit)).toBe('deezer');
    expect(providerOfUri(`${atLimit}1`)).toBeNull();
    expect(classifyLocation(`${atLimit}1`)).toEqual({ kind: 'other', text: `${atLimit}1` });
  });

  it('orders providers: the preferred one first, then by code unit', () => {
    const uris = { tidal: 't', Zed: 'z', apple: 'a', spotify: 's' };
    expect(orderedProviders(uris, null)).toEqual(['Zed', 'apple', 'spotify', 'tidal']);
    expect(orderedProviders(uris, 'spotify')).toEqual(['spotify', 'Zed', 'apple', 'tidal']);
    expect(orderedProviders(uris, 'deezer')).toEqual(['Zed', 'apple', 'spotify', 'tidal']);
  });

  it('picks the source URI, skipping empty ones', () => {
    expect(pickSourceUri({ tidal: 't', apple: '' }, null)).toBe('t');
    expect(pickSourceUri({ tidal: 't', spotify: 's' }, 'spotify')).toBe('s');
    expect(pickSourceUri({ tidal: 't', spotify: '' }, 'spotify')).toBe('t');
    expect(pickSourceUri({}, 'spotify')).toBeNull();
  });
});

describe('trackSourceUri', () => {
  it('falls back to the location a playlist reader kept (a web address or a path is a source reference too)', () => {
    expect(trackSourceUri({ provider_uris: {}, metadata: { location: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' } }, null)).toBe('https://www.youtube.com/watch?v=dQw4w9WgXcQ');
    expect(trackSourceUri({ provider_uris: {}, metadata: { location: 'C:\\Music\\a.mp3', local_path: 'C:\\Music\\a.mp3' } }, null)).toBe('C:\\Music\\a.mp3');
    // A provider URI, then `metadata.source_uri`, come first.
    expect(trackSourceUri({ provider_uris: { spotify: 'spotify:track:1' }, metadata: { location: 'https://x' } }, null)).toBe('spotify:track:1');
    expect(trackSourceUri({ provider_uris: {}, metadata: { source_uri: 'https://a', location: 'https://b' } }, null)).toBe('https://a');
    expect(trackSourceUri({ provider_uris: {}, metadata: { location: '' } }, null)).toBeNull();
    expect(trackSourceUri({ provider_uris: {}, metadata: { location: 42 } }, null)).toBeNull();
  });
});
