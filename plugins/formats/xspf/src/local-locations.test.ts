import { formatKit } from '@opl/plugin-sdk';
import { type PlaylistInput } from '@opl/plugin-sdk/schemas';
import { runParse, runSerialize } from '@opl/plugin-sdk/testing';
import { describe, expect, it } from 'vitest';
// The M3U8 plugin, only to check the conversion end to end (XSPF ⇒ model ⇒ M3U8) as `opl convert` runs it.
import m3u8 from '../../m3u8/src/index.ts';
import { exported, parse, normalized, locationsOf, localTrack, withoutOurExtension, XSPF_HEAD, VLC_LIKE } from './xspf-test-support.ts';

describe('local files: imported paths are written as URIs', () => {
  const paths = [
    'C:\\Music\\Artist\\Song.mp3',
    '\\\\server\\share\\a.mp3',
    '/home/me/Music/a b.mp3',
    'Music/a.mp3',
    '..\\a.mp3',
    'C:\\Mü sic\\#1 100%.mp3',
    'file:///already/a%20uri.mp3',
    'C:\\x\\<b>&amp;\u0007\uD800.mp3',
  ];
  const uris = [
    'file:///C:/Music/Artist/Song.mp3',
    'file://server/share/a.mp3',
    'file:///home/me/Music/a%20b.mp3',
    'Music/a.mp3',
    '../a.mp3',
    'file:///C:/M%C3%BC%20sic/%231%20100%25.mp3',
    'file:///already/a%20uri.mp3',
    'file:///C:/x/%3Cb%3E%26amp%3B%07%EF%BF%BD.mp3',
  ];
  const playlist: PlaylistInput = { name: 'From M3U', tracks: paths.map((path, index) => localTrack(path, `Song ${index}`)) };

  it('writes drive, UNC, POSIX and relative paths as file: or relative URIs, and a URI as it is', async () => {
    const text = await exported(playlist);
    expect(locationsOf(text)).toEqual(uris);
    // Percent-encoded: the hostile path leaves no markup or control character in <location>.
    expect(text).toContain('<location>file:///C:/x/%3Cb%3E%26amp%3B%07%EF%BF%BD.mp3</location>');
    expect(text).not.toMatch(/<location>[^<]*\\/);
  });

  it('reads back the exact paths from our extension (so an M3U written from it has the original lines)', async () => {
    const result = await parse(await exported(playlist));
    expect(result.issues).toEqual([]);
    const expected = normalized(playlist);
    // The lone surrogate cannot be written as XML; JSON escapes it (\ud800) in the extension's metadata.
    expect(result.playlists).toEqual([expected]);
    expect(result.playlists[0]!.tracks.map((track) => track.metadata.location)).toEqual(paths);
  });

  it('lets other software read them as local files (our extension removed), which our reader decodes back into paths', async () => {
    const result = await parse(withoutOurExtension(await exported(playlist)));
    expect(result.issues).toEqual([]);
    const tracks = result.playlists[0]!.tracks;
    // The path each URI names (as the SDK decodes a file: URL for the M3U reader: drive and UNC paths with slashes).
    const decoded = ['C:/Music/Artist/Song.mp3', '//server/share/a.mp3', '/home/me/Music/a b.mp3', 'Music/a.mp3', '../a.mp3', 'C:/Mü sic/#1 100%.mp3', '/already/a uri.mp3'];
    expect(tracks.slice(0, 7).map((track) => track.metadata)).toEqual(decoded.map((path) => ({ location: path, local_path: path })));
    // A path with a control character (%07) is no playlist line: the URI stays as written.
    expect(tracks[7]!.metadata).toEqual({ location: uris[7], local_path: 'C:/x/<b>&amp;\u0007\uFFFD.mp3' });
    expect(tracks.every((track) => track.is_local && track.media_type === 'local_file')).toBe(true);
  });

  it('converts every location of metadata.locations, in order, written once each', async () => {
    const text = await exported({ name: 'L', tracks: [{ title: 'T', artist: '', metadata: { location: 'C:\\a.mp3', locations: ['C:\\a.mp3', 'C:/a.mp3', 'http://radio.example/s', '', 42, 'b c.ogg'] } }] });
    expect(locationsOf(text)).toEqual(['file:///C:/a.mp3', 'http://radio.example/s', 'b%20c.ogg']);
  });

  it('writes no <location> for an empty one, and keeps it in the extension', async () => {
    const empty: PlaylistInput = { name: 'E', tracks: [{ title: 'T', artist: '', metadata: { location: '' } }] };
    const text = await exported(empty);
    expect(locationsOf(text)).toEqual([]);
    expect((await parse(text)).playlists).toEqual([normalized(empty)]);
  });

  it('writes a long path in full, and leaves out one so long that the document would not read back', async () => {
    const long = `C:\\${'ü'.repeat(50_000)}\\a.mp3`;
    const absurd = `/${' '.repeat(400_000)}`;
    const input: PlaylistInput = { name: 'Long', tracks: [localTrack(long), localTrack(absurd)] };
    const text = await exported(input);
    const [written, ...rest] = locationsOf(text);
    expect(rest).toEqual([]);
    expect(written).toBe(`file:///C:/${'%C3%BC'.repeat(50_000)}/a.mp3`);
    const result = await parse(text);
    expect(result.issues).toEqual([]);
    expect(result.playlists).toEqual([normalized(input)]);
  });
});

describe('locations written by other software', () => {
  it('reads file: URIs and relative references as the decoded local paths the M3U, PLS and WPL readers keep', async () => {
    const result = await parse(VLC_LIKE, 'vlc.xspf');
    const tracks = result.playlists[0]!.tracks;
    const paths = ['/home/u/Music/a b.mp3', 'C:/Users/u/Music/Björk - Jóga.flac', '//nas/share/#1 hit.ogg', 'Music/a b.mp3', '../x/été.flac'];
    expect(tracks.slice(0, 5).map((track) => track.metadata)).toEqual(paths.map((path) => ({ location: path, local_path: path })));
    expect(tracks.slice(0, 7).every((track) => track.is_local && track.media_type === 'local_file' && !track.is_migratable)).toBe(true);
    expect(tracks[0]).toMatchObject({ title: 'A B', duration_s: 215 });
    // Malformed escapes: kept as written (the path as the SDK leaves it), with a warning on the track's line.
    expect(tracks[5]!.metadata).toEqual({ location: 'file:///home/u/%E9t%E9.mp3', local_path: '/home/u/%E9t%E9.mp3' });
    expect(tracks[6]!.metadata).toEqual({ location: 'Music/%zz.mp3', local_path: 'Music/%zz.mp3' });
    expect(result.issues).toEqual([
      { line: 20, column: null, code: 'invalid_value', severity: 'warning', message: expect.stringMatching(/^the location "file:\/\/\/home\/u\/%E9t%E9\.mp3" has a malformed percent-encoding .*kept as written$/) as unknown },
      { line: 21, column: null, code: 'invalid_value', severity: 'warning', message: expect.stringMatching(/^the location "Music\/%zz\.mp3" is not a URI, as XSPF requires \(it holds a "%" that is not followed by two hexadecimal digits\); it was read as written$/) as unknown },
    ]);
    // A web URL stays as it is: not a local file. Named by its file ("live stream"), it names no artist, so it is no song to search for (as in M3U).
    expect(tracks[7]).toMatchObject({ title: 'live stream', artist: '', is_local: false, media_type: 'unknown', is_migratable: false, unsupported_reason: formatKit.REMOTE_ITEM_REASONS.unnamed, metadata: { location: 'http://radio.example/live%20stream.mp3' } });
    // Tracks without a <title> are named by their file, as the M3U, PLS and WPL readers name them.
    expect(tracks.map((track) => [track.title, track.artist])).toEqual([
      ['A B', ''],
      ['Jóga', 'Björk'],
      ['#1 hit', ''],
      ['a b', ''],
      ['été', ''],
      ['%E9t%E9', ''],
      ['%zz', ''],
      ['live stream', ''],
    ]);
  });

  it('converts to M3U8 with the decoded paths as lines (as `opl convert x.xspf --to m3u8` does)', async () => {
    const { playlists } = await parse(VLC_LIKE, 'vlc.xspf');
    const text = (await runSerialize(m3u8, playlists, {})).text;
    const lines = text.split('\n').filter((line) => line !== '' && !line.startsWith('#'));
    expect(lines).toEqual(['/home/u/Music/a b.mp3', 'C:/Users/u/Music/Björk - Jóga.flac', '//nas/share/#1 hit.ogg', 'Music/a b.mp3', '../x/été.flac', 'file:///home/u/%E9t%E9.mp3', 'Music/%zz.mp3', 'http://radio.example/live%20stream.mp3']);
    // And back: the M3U8 reader reads the same local files.
    const back = await runParse(m3u8, text, { filename: 'vlc.m3u8' });
    expect(back.playlists[0]!.tracks.slice(0, 5).map((track) => track.metadata.local_path)).toEqual(['/home/u/Music/a b.mp3', 'C:/Users/u/Music/Björk - Jóga.flac', '//nas/share/#1 hit.ogg', 'Music/a b.mp3', '../x/été.flac']);
  });

  it('writes the decoded paths back as the same URIs (a document without our extension, read and exported again)', async () => {
    const { playlists } = await parse(VLC_LIKE, 'vlc.xspf');
    const again = await exported(playlists[0]!);
    expect(locationsOf(withoutOurExtension(again))).toEqual([
      'file:///home/u/Music/a%20b.mp3',
      'file:///C:/Users/u/Music/Bj%C3%B6rk%20-%20J%C3%B3ga.flac',
      'file://nas/share/%231%20hit.ogg',
      'Music/a%20b.mp3',
      '../x/%C3%A9t%C3%A9.flac',
      'file:///home/u/%E9t%E9.mp3',
      // A path with a literal % (the escape could not be decoded) is written as a URI that names it.
      'Music/%25zz.mp3',
      'http://radio.example/live%20stream.mp3',
    ]);
  });

  it('writes back what the standard elements of another program said: identifiers, annotations, info, the playlist location and license', async () => {
    const { playlists } = await parse(
      `${XSPF_HEAD}  <title>Mix</title>\n  <info>http://e.example/mix</info>\n  <location>http://e.example/mix.xspf</location>\n  <identifier>urn:uuid:5c2d1d2a-4a3e-4b5c-9d8e-1f2a3b4c5d6e</identifier>\n  <license>http://creativecommons.org/licenses/by/4.0/</license>\n  <trackList>\n` +
        '    <track><location>http://e.example/a.mp3</location><identifier>https://musicbrainz.org/recording/8f3471b5-7e6a-48da-86a9-c1c07a0f47ae</identifier><identifier>amarok-sqltrackuid://6f2c0ad9</identifier><title>Strangers</title><creator>Portishead</creator><annotation>B-side &amp; more</annotation><info>http://e.example/strangers</info></track>\n' +
        '    <track><identifier>deezer:track:5</identifier><identifier>urn:x:2</identifier><title>T</title></track>\n' +
        '  </trackList>\n</playlist>\n',
    );
    const again = withoutOurExtension(await exported(playlists[0]!));
    expect(again).toContain('<title>Mix</title>\n  <info>http://e.example/mix</info>\n  <location>http://e.example/mix.xspf</location>\n  <identifier>urn:uuid:5c2d1d2a-4a3e-4b5c-9d8e-1f2a3b4c5d6e</identifier>\n  <license>http://creativecommons.org/licenses/by/4.0/</license>\n');
    expect(again).toContain(
      '<location>http://e.example/a.mp3</location>\n      <identifier>https://musicbrainz.org/recording/8f3471b5-7e6a-48da-86a9-c1c07a0f47ae</identifier>\n      <identifier>amarok-sqltrackuid://6f2c0ad9</identifier>\n' +
        '      <title>Strangers</title>\n      <creator>Portishead</creator>\n      <annotation>B-side &amp; more</annotation>\n      <info>http://e.example/strangers</info>\n',
    );
    // After the provider URI, which comes first.
    expect(again).toContain('<identifier>deezer:track:5</identifier>\n      <identifier>urn:x:2</identifier>\n');
    // Read back without our extension, as another program reads it, the same values come out.
    const back = await parse(again);
    expect(back.playlists[0]!.metadata).toEqual(playlists[0]!.metadata);
    expect(back.playlists[0]!.tracks.map((track) => track.metadata)).toEqual(playlists[0]!.tracks.map((track) => track.metadata));
  });

  it('decodes the locations of a track with several, once each, and JSPF locations too', async () => {
    const result = await parse(`${XSPF_HEAD}<trackList><track><location>http://radio.example/a</location><location>file:///m/a%20b.mp3</location><location>file://localhost/m/a%20b.mp3</location><location>m/c%20d.mp3</location></track></trackList></playlist>`);
    expect(result.playlists[0]!.tracks[0]).toMatchObject({ is_local: true, metadata: { location: 'http://radio.example/a', local_path: '/m/a b.mp3', locations: ['http://radio.example/a', '/m/a b.mp3', 'm/c d.mp3'] } });
    const jspf = await parse(JSON.stringify({ playlist: { track: [{ location: ['../x/%C3%A9t%C3%A9.flac'] }, { location: ['%E9.mp3'] }] } }), 'x.jspf');
    expect(jspf.playlists[0]!.tracks.map((track) => track.metadata)).toEqual([{ location: '../x/été.flac', local_path: '../x/été.flac' }, { location: '%E9.mp3', local_path: '%E9.mp3' }]);
    expect(jspf.issues).toEqual([expect.objectContaining({ line: null, code: 'invalid_value' })]);
  });
});

describe('provider URIs that are not tracks, Spotify local files and copied links', () => {
  const list = (tracks: string) => `<?xml version="1.0" encoding="UTF-8"?><playlist version="1" xmlns="http://xspf.org/ns/0/"><trackList>${tracks}</trackList></playlist>`;

  it('reads each for what it names', async () => {
    const result = await parse(
      list(
        '<track><location>spotify:local:Daft+Punk:Discovery:One+More+Time:320</location></track>' +
          '<track><location>spotify:local:Daft+Punk:Discovery:One+More+Time:320</location><title>Own Title</title><album>Own Album</album><duration>200000</duration></track>' +
          '<track><location>spotify:album:2noRn2Aes5aoNVsU6iWThc</location><title>Discovery</title></track>' +
          '<track><location>tidal:album:17927863</location></track>' +
          '<track><location>spotify:episode:512ojhOuo1ktJprKbVcKyQ</location></track>' +
          '<track><location>https://tidal.com/track/53796003/u</location></track>' +
          '<track><location>https://open.spotify.com/embed/track/4uLU6hMCjMI75M1A2tKUQC</location></track>' +
          '<track><location>spotify:playlist:37i9dQZF1DXcBWIGoYBM5M</location><location>spotify:track:4uLU6hMCjMI75M1A2tKUQC</location></track>',
      ),
    );
    const tracks = result.playlists[0]!.tracks;
    expect(tracks[0]).toMatchObject({ artist: 'Daft Punk', title: 'One More Time', album: 'Discovery', duration_s: 320, provider_uris: {}, is_local: true, media_type: 'local_file', is_migratable: false, unsupported_reason: formatKit.LOCAL_FILE_REASON, metadata: { location: 'spotify:local:Daft+Punk:Discovery:One+More+Time:320' } });
    expect(tracks[0]!.metadata).not.toHaveProperty('local_path');
    expect(tracks[1]).toMatchObject({ artist: 'Daft Punk', title: 'Own Title', album: 'Own Album', duration_s: 200, media_type: 'local_file' });
    expect(tracks[2]).toMatchObject({ title: 'Discovery', provider_uris: {}, media_type: 'unknown', is_migratable: false, unsupported_reason: formatKit.PROVIDER_ITEM_REASONS.album, metadata: { location: 'spotify:album:2noRn2Aes5aoNVsU6iWThc' } });
    expect(tracks[3]).toMatchObject({ provider_uris: {}, media_type: 'unknown', is_migratable: false, unsupported_reason: formatKit.PROVIDER_ITEM_REASONS.album });
    expect(tracks[4]).toMatchObject({ provider_uris: { spotify: 'spotify:episode:512ojhOuo1ktJprKbVcKyQ' }, media_type: 'episode', is_migratable: false, unsupported_reason: formatKit.PROVIDER_ITEM_REASONS.episode });
    expect(tracks[5]).toMatchObject({ provider_uris: { tidal: 'tidal:track:53796003' }, media_type: 'track', is_migratable: true });
    expect(tracks[6]).toMatchObject({ provider_uris: { spotify: 'spotify:track:4uLU6hMCjMI75M1A2tKUQC' }, media_type: 'track', is_migratable: true });
    // A track location next to a playlist link: the track, with the link kept as a location.
    expect(tracks[7]).toMatchObject({ provider_uris: { spotify: 'spotify:track:4uLU6hMCjMI75M1A2tKUQC' }, media_type: 'track', is_migratable: true, metadata: { location: 'spotify:playlist:37i9dQZF1DXcBWIGoYBM5M' } });
  });

  it('writes metadata.source_uri (a CSV or TXT import) as the location when the track has no other', async () => {
    const text = await exported({
      name: 'Links',
      tracks: [
        { title: 'Never Gonna Give You Up', artist: 'Rick Astley', metadata: { source_uri: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' } },
        { title: 'Path', artist: 'A', metadata: { source_uri: 'C:\\Music\\a b.mp3' } },
        { title: 'Provider', artist: 'B', provider_uris: { spotify: 'spotify:track:4uLU6hMCjMI75M1A2tKUQC' }, metadata: { source_uri: 'https://a.example/x.mp3' } },
      ],
    });
    const locations = [...text.matchAll(/<location>([^<]*)<\/location>/g)].map((match) => match[1]);
    expect(locations).toEqual(['https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'file:///C:/Music/a%20b.mp3', 'https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC']);
  });
});
