import { runParse, runSerialize } from '@opl/plugin-sdk/testing';
import { describe, expect, it } from 'vitest';
import plugin from './index.ts';
import { formatKit } from '@opl/plugin-sdk';
import { LOCAL_FILE_REASON } from './m3u-parser.ts';
import { encoder, parseText } from './m3u8-test-support.ts';

describe('parse: remote locations', () => {
  const { stream, playlist, unnamed } = formatKit.REMOTE_ITEM_REASONS;
  const notSong = (reason: string) => ({ media_type: 'unknown', is_migratable: false, is_local: false, unsupported_reason: reason });
  const song = { media_type: 'track', is_migratable: true, is_local: false, unsupported_reason: null };

  it('reads radio streams and other web addresses that name no song as unknown media, not migrated', async () => {
    const result = await parseText(
      [
        '#EXTM3U',
        '#EXTINF:-1,Radio FIP',
        'http://icecast.radiofrance.fr/fip-midfi.mp3',
        '#EXTINF:-1,FIP - Live',
        'https://stream.example/fip.mp3',
        'http://stream.example.com:8000/live',
        '#EXTINF:-1 tvg-id="bbc1.uk" group-title="UK",BBC One HD',
        'http://example.com/live/bbc1.m3u8',
        '#EXTINF:3600,Station - Morning Show',
        'rtsp://radio.example/live',
        '#EXTINF:215,One More Time',
        'http://music.example/omt.mp3',
        '#EXTINF:200,Some - Playlist',
        'https://radio.example/listen.pls',
        '',
      ].join('\n'),
    );
    expect(result.issues).toEqual([]);
    expect(result.playlists[0]?.tracks).toMatchObject([
      { artist: '', title: 'Radio FIP', duration_s: null, metadata: { location: 'http://icecast.radiofrance.fr/fip-midfi.mp3' }, ...notSong(stream) },
      { artist: 'FIP', title: 'Live', ...notSong(stream) },
      { artist: '', title: 'live', duration_s: null, metadata: { location: 'http://stream.example.com:8000/live' }, ...notSong(unnamed) },
      { title: 'BBC One HD', ...notSong(stream) },
      { artist: 'Station', title: 'Morning Show', duration_s: 3600, ...notSong(stream) },
      { artist: '', title: 'One More Time', duration_s: 215, ...notSong(unnamed) },
      { artist: 'Some', title: 'Playlist', ...notSong(playlist) },
    ]);
  });

  it('takes a remote file named by artist and title, with a length, for a song (matched by its names)', async () => {
    const result = await parseText('#EXTINF:215,Daft Punk - One More Time\nhttp://music.example/omt.mp3\nhttps://music.example/Daft%20Punk%20-%20Aerodynamic.mp3?dl=1\n#EXTART:Zaz\n#EXTINF:219,Je veux\nhttp://music.example/zaz.mp3\n');
    expect(result.issues).toEqual([]);
    expect(result.playlists[0]?.tracks).toMatchObject([
      { artist: 'Daft Punk', title: 'One More Time', duration_s: 215, metadata: { location: 'http://music.example/omt.mp3' }, ...song },
      { artist: 'Daft Punk', title: 'Aerodynamic', duration_s: null, ...song },
      { artist: 'Zaz', title: 'Je veux', ...song },
    ]);
  });

  it('keeps provider track links as songs, whatever their length', async () => {
    const result = await parseText('#EXTINF:-1,Radio Edit\nhttps://open.spotify.com/track/abc\n#EXTINF:-1,x\nhttps://listen.tidal.com/album/111/track/22222\n');
    expect(result.playlists[0]?.tracks).toMatchObject([
      { provider_uris: { spotify: 'spotify:track:abc' }, ...song },
      { provider_uris: { tidal: 'tidal:track:22222' }, ...song },
    ]);
  });

  it('keeps another service\'s song page as a song, named or not, whatever its length, and takes no name from its path', async () => {
    const result = await parseText('#EXTM3U\nhttps://www.deezer.com/track/3135556\n#EXTINF:-1,\nhttps://music.youtube.com/watch?v=FGBhQbmPwH8\n#EXTINF:320,Daft Punk - One More Time\nhttps://youtu.be/FGBhQbmPwH8\n');
    expect(result.issues).toEqual([]);
    expect(result.playlists[0]?.tracks).toMatchObject([
      { artist: '', title: '', provider_uris: {}, metadata: { location: 'https://www.deezer.com/track/3135556' }, ...song },
      { artist: '', title: '', provider_uris: {}, metadata: { location: 'https://music.youtube.com/watch?v=FGBhQbmPwH8' }, ...song },
      { artist: 'Daft Punk', title: 'One More Time', duration_s: 320, metadata: { location: 'https://youtu.be/FGBhQbmPwH8' }, ...song },
    ]);
  });

  it('reads a file on a network share (smb://) as a local file, like its UNC path', async () => {
    const result = await parseText('#EXTM3U\n#EXTINF:320,Daft Punk - One More Time\nsmb://nas/Music/Daft%20Punk%20-%20One%20More%20Time.mp3\n');
    expect(result.playlists[0]?.tracks).toMatchObject([
      { artist: 'Daft Punk', title: 'One More Time', is_local: true, media_type: 'local_file', is_migratable: false, metadata: { location: 'smb://nas/Music/Daft%20Punk%20-%20One%20More%20Time.mp3', local_path: 'smb://nas/Music/Daft%20Punk%20-%20One%20More%20Time.mp3' } },
    ]);
  });

  it("reads iTunes and Music's exports, which write `Title - Artist`, the right way round by the file's path", async () => {
    // "Export Playlist…" on a Mac: lone CR line ends, POSIX paths in the iTunes Media layout.
    const mac = [
      '#EXTM3U',
      '#EXTINF:263,Harbour Lights - The Quiet Tide',
      '/Users/ana/Music/iTunes/iTunes Media/Music/The Quiet Tide/Northern Coast/02 Harbour Lights.mp3',
      // Disc and track number before the name; a title with a dash of its own.
      '#EXTINF:301,Under Glass - Live in Oslo - Mara Voss',
      '/Users/ana/Music/Music/Media.localized/Music/Mara Voss/Live/1-07 Under Glass - Live in Oslo.m4a',
      // A compilation: the folder is no artist, the file names the title.
      '#EXTINF:199,Slow Rivers - Kestrel Park',
      '/Users/ana/Music/iTunes/iTunes Media/Music/Compilations/Summer Sampler/11 Slow Rivers.m4a',
      // A path that says nothing: the file is title first, so this entry is too.
      '#EXTINF:180,Low Tide - The Quiet Tide',
      '/Volumes/Stick/track 4.mp3',
      '',
    ].join('\r');
    expect((await parseText(mac)).playlists[0]?.tracks).toMatchObject([
      { artist: 'The Quiet Tide', title: 'Harbour Lights', duration_s: 263, track_number: null },
      { artist: 'Mara Voss', title: 'Under Glass - Live in Oslo' },
      { artist: 'Kestrel Park', title: 'Slow Rivers' },
      { artist: 'The Quiet Tide', title: 'Low Tide' },
    ]);
    // On Windows, CRLF; iTunes cuts long file names.
    const windows = '#EXTM3U\r\n#EXTINF:452,Little Harbour Lights (Northern Coast Remix) - The Quiet Tide\r\nC:\\Users\\ana\\Music\\iTunes\\iTunes Media\\Music\\The Quiet Tide\\Unknown Album\\Little Harbour Lights (Northern Coast R.mp3\r\n';
    expect((await parseText(windows)).playlists[0]?.tracks).toMatchObject([{ artist: 'The Quiet Tide', title: 'Little Harbour Lights (Northern Coast Remix)' }]);
  });

  it('keeps `Artist - Title` when the path agrees or says nothing', async () => {
    const text = [
      '#EXTM3U',
      '#EXTINF:263,The Quiet Tide - Harbour Lights',
      'D:\\Music\\The Quiet Tide\\Northern Coast\\02 Harbour Lights.mp3',
      '#EXTINF:200,The Quiet Tide - Harbour Lights',
      '../Music/The Quiet Tide - Harbour Lights.mp3',
      '#EXTINF:200,Some Artist - Some Title',
      'x.mp3',
      // Self-titled: the path fits both readings.
      '#EXTINF:240,Kestrel Park - Kestrel Park',
      '/music/Kestrel Park/Kestrel Park/01 Kestrel Park.mp3',
      '',
    ].join('\n');
    expect((await parseText(text)).playlists[0]?.tracks).toMatchObject([
      { artist: 'The Quiet Tide', title: 'Harbour Lights' },
      { artist: 'The Quiet Tide', title: 'Harbour Lights' },
      { artist: 'Some Artist', title: 'Some Title' },
      { artist: 'Kestrel Park', title: 'Kestrel Park' },
    ]);
  });

  it('reads #EXTGENRE as the genre, beside #EXTALB and #EXTART, and ignores #EXTIMG and #EXTBYT', async () => {
    const result = await parseText('#EXTM3U\n#PLAYLIST:Mix\n#EXTART:The Quiet Tide\n#EXTALB:Northern Coast\n#EXTGENRE:Dream Pop\n#EXTIMG:cover.jpg\n#EXTBYT:5242880\n#EXTINF:263,Harbour Lights\n../Music/02 Harbour Lights.mp3\n#EXTINF:200,Other - Song\nb.mp3\n');
    expect(result.issues).toEqual([]);
    expect(result.playlists[0]?.tracks).toMatchObject([
      { artist: 'The Quiet Tide', title: 'Harbour Lights', album: 'Northern Coast', genre: 'Dream Pop', duration_s: 263 },
      { artist: 'Other', title: 'Song', album: null, genre: null },
    ]);
  });

  it('reads the content:// URIs of Android players as files on the phone, not as web addresses to migrate', async () => {
    const media = 'content://media/external/audio/media/1234';
    const document = 'content://com.android.externalstorage.documents/document/primary%3AMusic%2FAir%2FAir%20-%20Sexy%20Boy.mp3';
    const result = await parseText(`#EXTM3U\n#EXTINF:320,Daft Punk - One More Time\n${media}\n${document}\n${media}\n/storage/emulated/0/Music/Air/La Femme d'Argent.mp3\n`);
    const local = { is_local: true, media_type: 'local_file', is_migratable: false, unsupported_reason: LOCAL_FILE_REASON };
    expect(result.playlists[0]?.tracks).toMatchObject([
      { artist: 'Daft Punk', title: 'One More Time', duration_s: 320, ...local, metadata: { location: media, local_path: media } },
      { artist: 'Air', title: 'Sexy Boy', ...local, metadata: { location: document, local_path: document } },
      // A media-store number names no song.
      { artist: '', title: '', ...local, metadata: { location: media } },
      { artist: '', title: "La Femme d'Argent", ...local },
    ]);
  });

  it('reads a Spotify or TIDAL album or playlist link as what it names, not as a song to search for, even with a title', async () => {
    const result = await parseText('#EXTM3U\n#EXTINF:2400,Daft Punk - Discovery\nhttps://open.spotify.com/album/2noRn2Aes5aoNVsU6iWThc?si=1\n#EXTINF:-1,Friday mix\nhttps://tidal.com/browse/playlist/0c5b2c1e-8a4f-4f57-9d43-4b1b5f0d2c7a\n');
    expect(result.playlists[0]?.tracks).toMatchObject([
      { title: 'Discovery', provider_uris: {}, media_type: 'unknown', is_migratable: false, unsupported_reason: 'album link: the location names an album, not a song', metadata: { location: 'https://open.spotify.com/album/2noRn2Aes5aoNVsU6iWThc?si=1' } },
      { provider_uris: {}, media_type: 'unknown', is_migratable: false, unsupported_reason: 'playlist link: the location names another playlist, not a song', metadata: { location: 'https://tidal.com/browse/playlist/0c5b2c1e-8a4f-4f57-9d43-4b1b5f0d2c7a' } },
    ]);
  });

  it('refuses an HLS media or master playlist: segments of one stream, not songs', async () => {
    const media = await parseText('#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:10\n#EXT-X-MEDIA-SEQUENCE:0\n#EXTINF:10.0,\nsegment000.ts\n#EXTINF:9.5,\nsegment001.ts\n#EXT-X-ENDLIST\n', 'video.m3u8');
    expect(media).toEqual({ playlists: [], issues: [expect.objectContaining({ line: 3, code: 'hls_playlist', severity: 'error' })] });
    expect(media.issues[0]?.message).toContain('HLS');
    const master = await parseText('#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1280000,RESOLUTION=1280x720\nvideo/720p.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=640000\nvideo/360p.m3u8\n');
    expect(master).toMatchObject({ playlists: [], issues: [{ line: 2, code: 'hls_playlist' }] });
  });
});

describe('provider URIs that are not tracks, and Spotify local files', () => {
  it('reads a spotify:local URI as a local file named by it, unless #EXTINF names it', async () => {
    const result = await parseText(
      '#EXTM3U\nspotify:local:Daft+Punk:Discovery:One+More+Time:320\n#EXTINF:200,Own Title\n#EXTALB:Own Album\nspotify:local:Daft+Punk:Discovery:One+More+Time:320\n',
    );
    const [first, second] = result.playlists[0]!.tracks;
    expect(first).toMatchObject({ artist: 'Daft Punk', title: 'One More Time', album: 'Discovery', duration_s: 320, provider_uris: {}, is_local: true, media_type: 'local_file', is_migratable: false, unsupported_reason: formatKit.LOCAL_FILE_REASON, metadata: { location: 'spotify:local:Daft+Punk:Discovery:One+More+Time:320' } });
    expect(first!.metadata).not.toHaveProperty('local_path');
    expect(second).toMatchObject({ artist: 'Daft Punk', title: 'Own Title', album: 'Own Album', duration_s: 200, media_type: 'local_file', is_migratable: false });
  });

  it('reads albums, playlists and artists as links that are not songs, and an episode as an episode', async () => {
    const result = await parseText(
      '#EXTM3U\n#EXTINF:-1,Discovery\nspotify:album:2noRn2Aes5aoNVsU6iWThc\nspotify:playlist:37i9dQZF1DXcBWIGoYBM5M\ntidal:album:17927863\nspotify:artist:4tZwfgrHOc3mvqYlEYSvVi\n#EXTINF:3600,Some Show - Episode 1\nspotify:episode:512ojhOuo1ktJprKbVcKyQ\n',
    );
    const tracks = result.playlists[0]!.tracks;
    expect(tracks[0]).toMatchObject({ title: 'Discovery', provider_uris: {}, media_type: 'unknown', is_migratable: false, unsupported_reason: formatKit.PROVIDER_ITEM_REASONS.album, metadata: { location: 'spotify:album:2noRn2Aes5aoNVsU6iWThc' } });
    expect(tracks[1]).toMatchObject({ provider_uris: {}, media_type: 'unknown', is_migratable: false, unsupported_reason: formatKit.PROVIDER_ITEM_REASONS.playlist });
    expect(tracks[2]).toMatchObject({ provider_uris: {}, media_type: 'unknown', is_migratable: false, unsupported_reason: formatKit.PROVIDER_ITEM_REASONS.album, metadata: { location: 'tidal:album:17927863' } });
    expect(tracks[3]).toMatchObject({ media_type: 'unknown', is_migratable: false, unsupported_reason: formatKit.PROVIDER_ITEM_REASONS.artist });
    expect(tracks[4]).toMatchObject({ title: 'Episode 1', provider_uris: { spotify: 'spotify:episode:512ojhOuo1ktJprKbVcKyQ' }, media_type: 'episode', is_migratable: false, unsupported_reason: formatKit.PROVIDER_ITEM_REASONS.episode });
    // Written back, an album link keeps its location line.
    const { text } = await runSerialize(plugin, result.playlists);
    expect(text).toContain('\nspotify:album:2noRn2Aes5aoNVsU6iWThc\n');
  });

  it('reads TIDAL "Copy link" and Spotify embed / play links as tracks', async () => {
    const result = await parseText(
      '#EXTM3U\nhttps://tidal.com/track/53796003/u\nhttps://listen.tidal.com/track/53796003/u\nhttps://open.spotify.com/embed/track/4uLU6hMCjMI75M1A2tKUQC\nhttps://play.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC\n',
    );
    expect(result.playlists[0]!.tracks.map((track) => [track.title, track.provider_uris, track.media_type, track.is_migratable])).toEqual([
      ['', { tidal: 'tidal:track:53796003' }, 'track', true],
      ['', { tidal: 'tidal:track:53796003' }, 'track', true],
      ['', { spotify: 'spotify:track:4uLU6hMCjMI75M1A2tKUQC' }, 'track', true],
      ['', { spotify: 'spotify:track:4uLU6hMCjMI75M1A2tKUQC' }, 'track', true],
    ]);
  });
});

describe('source references of CSV and TXT imports', () => {
  it('writes metadata.source_uri as the location line when the track has no provider URI and no location', async () => {
    const { text } = await runSerialize(plugin, [
      {
        name: 'Links',
        tracks: [
          { title: 'Never Gonna Give You Up', artist: 'Rick Astley', metadata: { source_uri: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' } },
          { title: 'Both', artist: 'A', metadata: { source_uri: 'https://a.example/x.mp3', location: 'https://b.example/y.mp3' } },
          { title: 'Provider', artist: 'B', provider_uris: { spotify: 'spotify:track:4uLU6hMCjMI75M1A2tKUQC' }, metadata: { source_uri: 'https://a.example/x.mp3' } },
          { title: 'Unsafe', artist: 'C', metadata: { source_uri: '#not a line' } },
        ],
      },
    ]);
    const lines = text.split('\n').filter((line) => line !== '' && !line.startsWith('#'));
    expect(lines).toEqual(['https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'https://b.example/y.mp3', 'https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC']);
  });

  it('keeps web addresses and paths through M3U → CSV → M3U, and a YouTube link through CSV → M3U → CSV', async () => {
    const csv = (await import('../../csv/src/index.ts')).default;
    const m3u = '#EXTM3U\n#EXTINF:213,Rick Astley - Never Gonna Give You Up\nhttps://www.youtube.com/watch?v=dQw4w9WgXcQ\n#EXTINF:320,Daft Punk - One More Time\nC:\\Music\\Daft Punk - One More Time.mp3\n';
    const fromM3u = (await parseText(m3u)).playlists;
    const asCsv = (await runSerialize(csv, fromM3u)).text;
    expect(asCsv).toContain('https://www.youtube.com/watch?v=dQw4w9WgXcQ');
    expect(asCsv).toContain('C:\\Music\\Daft Punk - One More Time.mp3');
    const back = (await runSerialize(plugin, (await runParse(csv, encoder.encode(asCsv), { filename: 'list.csv' })).playlists)).text;
    const locations = back.split('\n').filter((line) => line !== '' && !line.startsWith('#'));
    expect(locations).toEqual(['https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'C:\\Music\\Daft Punk - One More Time.mp3']);

    const source = (await runParse(csv, encoder.encode(asCsv), { filename: 'list.csv' })).playlists;
    const again = (await runSerialize(csv, (await parseText(back)).playlists)).text;
    expect(again).toContain('https://www.youtube.com/watch?v=dQw4w9WgXcQ');
    expect(source[0]!.tracks[0]).toMatchObject({ title: 'Never Gonna Give You Up', metadata: { source_uri: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' } });
  });
});
