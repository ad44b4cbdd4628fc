import { formatKit } from '@opl/plugin-sdk';
import { runParse } from '@opl/plugin-sdk/testing';
import { describe, expect, it } from 'vitest';
import manifest from '../plugin.json' with { type: 'json' };
import plugin from './index.ts';
import { LOCAL_FILE_REASON } from './wpl-location.ts';

const encoder = new TextEncoder();
// The same text as fixtures/road-trip.wpl and fixtures/malformed.wpl (plugins may import only the SDK, so no file reads here).
const ROAD_TRIP = "<?wpl version=\"1.0\"?>\n<smil>\n    <head>\n        <meta name=\"Generator\" content=\"Microsoft Windows Media Player -- 12.0.19041.3636\"/>\n        <meta name=\"ItemCount\" content=\"7\"/>\n        <author>Léa</author>\n        <title>Route du Sud — été</title>\n    </head>\n    <body>\n        <seq>\n            <media src=\"..\\Music\\The Quiet Tide\\Harbour Lights\\01 Harbour Lights.mp3\" albumTitle=\"Harbour Lights\" albumArtist=\"The Quiet Tide\" trackTitle=\"Harbour Lights\" trackArtist=\"The Quiet Tide\" duration=\"215000\" tid=\"{3F2504E0-4F89-11D3-9A0C-0305E82C3301}\" cid=\"{8A1B2C3D-0000-1111-2222-333344445555}\"/>\n            <media src=\"C:\\Users\\Léa\\Music\\Mara Voss - Ünder Glass.flac\" tid=\"{3F2504E0-4F89-11D3-9A0C-0305E82C3302}\"/>\n            <media src=\"file:///D:/Musique/Zaz%20-%20Je%20veux.mp3\"/>\n            <media src=\"\\\\nas\\share\\宇多田ヒカル - First Love.m4a\"/>\n            <media src=\"https://open.spotify.com/track/0DiWol3AO6WpXZgp0goxAV\" trackTitle=\"One More Time\" trackArtist=\"Daft Punk\"/>\n            <media src=\"http://radio.example:8000/live.mp3\"/>\n            <media src=\"C:\\Users\\Léa\\Music\\Mara Voss - Ünder Glass.flac\" tid=\"{3F2504E0-4F89-11D3-9A0C-0305E82C3302}\"/>\n        </seq>\n    </body>\n</smil>\n";
const MALFORMED = "<?wpl version=\"1.0\"?>\n<smil>\n  <head>\n    <meta name=\"ItemCount\" content=\"6\"/>\n    <title>Half broken</title>\n  </head>\n  <body>\n    <seq>\n      <media src=\"Alpha - First.mp3\"/>\n      <media tid=\"{no-src}\"/>\n      <media src=\"Beta - Second.mp3\" duration=\"three minutes\"/>\n      <smartPlaylist version=\"1.0.0.0\"/>\n      <media src=\"\"/>\n      <media src=\"Gamma - Third.mp3\"/>\n    </seq>\n  </body>\n</smil>\n";
const parse = (bytes: Uint8Array, filename: string | null = 'list.wpl') => runParse(plugin, bytes, { filename, mediaType: 'application/vnd.ms-wpl' });
const parseText = (text: string, filename?: string | null) => parse(encoder.encode(text), filename);
const wpl = (media: string, head = '') => `<?wpl version="1.0"?><smil><head>${head}</head><body><seq>${media}</seq></body></smil>`;

describe('WPL', () => {
  it('has no serializer', () => {
    expect(plugin.operations.serialize).toBeUndefined();
  });

  it('reads a WMP playlist: Windows, relative, UNC and file:// paths as local files, links, duplicates and Unicode kept', async () => {
    const result = await parseText(ROAD_TRIP, 'road-trip.wpl');
    expect(result.issues).toEqual([]);
    const playlist = result.playlists[0]!;
    expect(playlist).toMatchObject({ name: 'Route du Sud — été', owner_name: 'Léa', metadata: { wpl_meta: { Generator: 'Microsoft Windows Media Player -- 12.0.19041.3636' } } });
    expect(playlist.tracks.map((track) => [track.position, track.artist, track.title, track.is_local, track.metadata.local_path ?? null])).toEqual([
      [0, 'The Quiet Tide', 'Harbour Lights', true, '..\\Music\\The Quiet Tide\\Harbour Lights\\01 Harbour Lights.mp3'],
      [1, 'Mara Voss', 'Ünder Glass', true, 'C:\\Users\\Léa\\Music\\Mara Voss - Ünder Glass.flac'],
      [2, 'Zaz', 'Je veux', true, 'D:/Musique/Zaz - Je veux.mp3'],
      [3, '宇多田ヒカル', 'First Love', true, '\\\\nas\\share\\宇多田ヒカル - First Love.m4a'],
      [4, 'Daft Punk', 'One More Time', false, null],
      [5, '', 'live', false, null],
      [6, 'Mara Voss', 'Ünder Glass', true, 'C:\\Users\\Léa\\Music\\Mara Voss - Ünder Glass.flac'],
    ]);
    expect(playlist.tracks[0]).toMatchObject({ album: 'Harbour Lights', duration_s: 215, media_type: 'local_file', is_migratable: false, unsupported_reason: LOCAL_FILE_REASON, metadata: { album_artist: 'The Quiet Tide', wpl_tid: '{3F2504E0-4F89-11D3-9A0C-0305E82C3301}' } });
    expect(playlist.tracks[2]!.metadata.location).toBe('file:///D:/Musique/Zaz%20-%20Je%20veux.mp3');
    expect(playlist.tracks[4]).toMatchObject({ provider_uris: { spotify: 'spotify:track:0DiWol3AO6WpXZgp0goxAV' }, media_type: 'track' });
    // A web address without artist and title: no song to search for.
    expect(playlist.tracks[5]).toMatchObject({ is_local: false, media_type: 'unknown', is_migratable: false, unsupported_reason: formatKit.REMOTE_ITEM_REASONS.unnamed, metadata: { location: 'http://radio.example:8000/live.mp3' } });
    expect(await parseText(ROAD_TRIP, 'road-trip.wpl')).toEqual(result);
  });

  it('reads the .zpl playlists of Zune and Groove Music (the same SMIL, with a <?zpl?> instruction and a <guid>) by their extension', async () => {
    expect(manifest.format.extensions).toEqual(['.wpl', '.zpl']);
    const zpl =
      '<?zpl version="2.0"?>\r\n<smil>\r\n  <head>\r\n    <guid>{6C1B0F5E-2E4D-4C6A-9B1A-3D5E7F9A1B2C}</guid>\r\n    <meta name="Generator" content="Zune -- 4.8.2345.0" />\r\n    <meta name="ItemCount" content="1" />\r\n    <title>Läufe</title>\r\n  </head>\r\n' +
      '  <body>\r\n    <seq>\r\n      <media src="C:\\Users\\ole\\Music\\Röyksopp\\Melody A.M\\03 Eple.wma" serviceId="{A2B3C4D5-0600-11DB-89CA-0019B92A3933}" albumTitle="Melody A.M." albumArtist="Röyksopp" trackTitle="Eple" trackArtist="Röyksopp" duration="220000" />\r\n    </seq>\r\n  </body>\r\n</smil>\r\n';
    const result = await parseText(zpl, 'Läufe.zpl');
    expect(result.issues).toEqual([]);
    expect(result.playlists[0]).toMatchObject({ name: 'Läufe', tracks: [{ title: 'Eple', artist: 'Röyksopp', album: 'Melody A.M.', duration_s: 220, is_local: true }] });
  });

  it('titles entries from WMP file names with a track number and falls back to the file name for the playlist', async () => {
    const result = await parseText(wpl('<media src="C:\\Music\\Album\\07 - Song Seven.wma"/><media src="Music/03 Three.mp3"/><media src="2046.mp3"/>'), 'My Mix.wpl');
    expect(result.playlists[0]!.name).toBe('My Mix');
    expect(result.playlists[0]!.tracks.map((track) => [track.artist, track.title, track.track_number])).toEqual([
      ['', 'Song Seven', 7],
      ['', 'Three', 3],
      ['', '2046', null],
    ]);
  });

  it('reads leading numbers of file names as track numbers, never as the artist, and keeps artists that are numbers', async () => {
    const files = ['12 Harbour Lights.wma', '01 Daft Punk - One More Time.mp3', '03 - Daft Punk - Digital Love.mp3', '50 Cent - In Da Club.mp3', '3 Doors Down - Kryptonite.mp3', '311 - Amber.mp3', '10 Years - Wasteland.mp3'];
    const result = await parseText(wpl(files.map((file) => `<media src="D:\\Music\\${file}"/>`).join('')));
    expect(result.playlists[0]!.tracks.map((track) => [track.track_number, track.artist, track.title])).toEqual([
      [12, '', 'Harbour Lights'],
      [1, 'Daft Punk', 'One More Time'],
      [3, 'Daft Punk', 'Digital Love'],
      [null, '50 Cent', 'In Da Club'],
      [null, '3 Doors Down', 'Kryptonite'],
      [null, '311', 'Amber'],
      [null, '10 Years', 'Wasteland'],
    ]);
  });

  it('reads stream and playlist links and unnamed web addresses as unknown media; a remote song named by WMP stays a song', async () => {
    const { playlist, unnamed } = formatKit.REMOTE_ITEM_REASONS;
    const result = await parseText(
      wpl(
        '<media src="http://stream.example.com/radio.asx"/><media src="http://music.example/omt.mp3" trackTitle="One More Time" trackArtist="Daft Punk" duration="320000"/><media src="http://music.example/x.mp3" trackTitle="Only A Title"/><media src="http://stream.example.com:8000/"/><media src="file:///C:/Music/Track #1.mp3"/><media src="intro:demo.mp3"/>',
      ),
    );
    expect(result.issues).toEqual([]);
    expect(result.playlists[0]!.tracks).toMatchObject([
      { title: 'radio', media_type: 'unknown', is_migratable: false, is_local: false, unsupported_reason: playlist, metadata: { location: 'http://stream.example.com/radio.asx' } },
      { artist: 'Daft Punk', title: 'One More Time', duration_s: 320, media_type: 'track', is_migratable: true, unsupported_reason: null },
      { title: 'Only A Title', media_type: 'unknown', is_migratable: false, unsupported_reason: unnamed },
      { title: 'stream.example.com:8000', media_type: 'unknown', unsupported_reason: unnamed },
      { title: 'Track #1', is_local: true, metadata: { location: 'file:///C:/Music/Track #1.mp3', local_path: 'C:/Music/Track #1.mp3' } },
      { title: 'intro:demo', is_local: true, provider_uris: {}, media_type: 'local_file', metadata: { local_path: 'intro:demo.mp3' } },
    ]);
  });

  it('reads a file in the encoding its XML declaration names, with no legacy_encoding warning (nothing is guessed)', async () => {
    const text = '<?xml version="1.0" encoding="windows-1252"?><smil><body><seq><media src="Björk - Jóga.mp3"/></seq></body></smil>';
    const result = await parse(Uint8Array.from([...text].map((char) => char.charCodeAt(0))));
    expect(result.playlists[0]!.tracks[0]).toMatchObject({ artist: 'Björk', title: 'Jóga' });
    expect(result.issues).toEqual([]);
  });

  it('reports entries without src, bad durations, ignored elements and a wrong ItemCount, keeping the valid neighbours', async () => {
    const result = await parseText(MALFORMED, 'malformed.wpl');
    expect(result.playlists[0]!.tracks.map((track) => track.title)).toEqual(['First', 'Second', 'Third']);
    expect(result.issues.map((issue) => [issue.line, issue.code, issue.severity])).toEqual([
      [10, 'missing_src', 'error'],
      [11, 'invalid_value', 'warning'],
      [12, 'ignored_element', 'warning'],
      [13, 'missing_src', 'error'],
      [4, 'entry_count_mismatch', 'warning'],
    ]);
  });

  it('refuses entity bombs, external entities, other XML and non-XML with a clear reason', async () => {
    await expect(parseText('<?wpl version="1.0"?><!DOCTYPE smil [<!ENTITY a "aa"><!ENTITY b "&a;&a;&a;">]><smil><head><title>&b;</title></head></smil>')).rejects.toThrow(/DOCTYPE is not accepted/);
    await expect(parseText('<!DOCTYPE smil [<!ENTITY s SYSTEM "file:///etc/passwd">]><smil><head><title>&s;</title></head></smil>')).rejects.toThrow(/DOCTYPE is not accepted/);
    await expect(parseText('<smil><head><title>&nbsp;</title></head></smil>')).rejects.toThrow(/undefined entity/);
    await expect(parseText('<playlist version="1" xmlns="http://xspf.org/ns/0/"><trackList/></playlist>')).rejects.toThrow(/not <smil>/);
    await expect(parseText('File1=a.mp3')).rejects.toThrow(/XML refused/);
    await expect(parse(new Uint8Array([0x3c, 0x73, 0xff, 0xfe, 0x00, 0x01]))).rejects.toThrow(/not valid UTF-8|XML refused/);
  });

  it('reads UTF-16 with a byte order mark and an empty playlist with a warning', async () => {
    const text = wpl('<media src="Björk - Jóga.mp3"/>');
    const le = new Uint8Array([0xff, 0xfe, ...[...text].flatMap((char) => [char.charCodeAt(0) & 0xff, char.charCodeAt(0) >> 8])]);
    expect((await parse(le)).playlists[0]!.tracks[0]).toMatchObject({ artist: 'Björk', title: 'Jóga' });
    const empty = await parseText('<?wpl version="1.0"?><smil><head><title>Nothing</title></head><body><seq/></body></smil>');
    expect(empty.playlists).toMatchObject([{ name: 'Nothing', tracks: [] }]);
    expect(empty.issues).toMatchObject([{ code: 'no_tracks' }]);
  });
});

describe('provider URIs that are not tracks, Spotify local files and copied links', () => {
  it('reads each for what it names', async () => {
    const result = await parseText(
      wpl(
        '<media src="spotify:local:Daft+Punk:Discovery:One+More+Time:320"/>' +
          '<media src="spotify:local:Daft+Punk:Discovery:One+More+Time:320" trackTitle="Own Title" albumTitle="Own Album" duration="200000"/>' +
          '<media src="spotify:album:2noRn2Aes5aoNVsU6iWThc" trackTitle="Discovery"/>' +
          '<media src="spotify:artist:4tZwfgrHOc3mvqYlEYSvVi"/>' +
          '<media src="spotify:episode:512ojhOuo1ktJprKbVcKyQ"/>' +
          '<media src="https://tidal.com/browse/track/53796003/u"/>' +
          '<media src="https://play.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC"/>',
      ),
    );
    const tracks = result.playlists[0]!.tracks;
    expect(tracks[0]).toMatchObject({ artist: 'Daft Punk', title: 'One More Time', album: 'Discovery', duration_s: 320, provider_uris: {}, is_local: true, media_type: 'local_file', is_migratable: false, unsupported_reason: formatKit.LOCAL_FILE_REASON, metadata: { location: 'spotify:local:Daft+Punk:Discovery:One+More+Time:320' } });
    expect(tracks[0]!.metadata).not.toHaveProperty('local_path');
    expect(tracks[1]).toMatchObject({ title: 'Own Title', album: 'Own Album', duration_s: 200, media_type: 'local_file' });
    expect(tracks[2]).toMatchObject({ title: 'Discovery', provider_uris: {}, media_type: 'unknown', is_migratable: false, unsupported_reason: formatKit.PROVIDER_ITEM_REASONS.album, metadata: { location: 'spotify:album:2noRn2Aes5aoNVsU6iWThc' } });
    expect(tracks[3]).toMatchObject({ media_type: 'unknown', is_migratable: false, unsupported_reason: formatKit.PROVIDER_ITEM_REASONS.artist });
    expect(tracks[4]).toMatchObject({ provider_uris: { spotify: 'spotify:episode:512ojhOuo1ktJprKbVcKyQ' }, media_type: 'episode', is_migratable: false });
    expect(tracks[5]).toMatchObject({ provider_uris: { tidal: 'tidal:track:53796003' }, media_type: 'track', is_migratable: true });
    expect(tracks[6]).toMatchObject({ provider_uris: { spotify: 'spotify:track:4uLU6hMCjMI75M1A2tKUQC' }, media_type: 'track', is_migratable: true });
  });
});
