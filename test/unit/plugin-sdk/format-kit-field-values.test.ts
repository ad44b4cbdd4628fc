import { describe, expect, it } from 'vitest';
import { clockDuration, integer, isrcCode, millisecondsDuration, sourceReference } from '../../../plugin-sdk/src/format-kit/field-values.ts';
import { knownTrackTableColumns, trackTableColumns, TrackTableReader } from '../../../plugin-sdk/src/format-kit/track-table.ts';
import { IssueCollector } from '../../../plugin-sdk/src/format-kit/issue-collector.ts';
import { trackSourceUri } from '../../../plugin-sdk/src/format-kit/source-uri.ts';

describe('sourceReference', () => {
  it('reads provider URIs and Spotify/TIDAL track links as provider URIs, local-file URIs as local files, the rest as other', () => {
    expect(sourceReference('spotify:track:abc')).toEqual({ kind: 'provider', provider: 'spotify', uri: 'spotify:track:abc' });
    expect(sourceReference('https://open.spotify.com/intl-de/track/abc?si=1')).toEqual({ kind: 'provider', provider: 'spotify', uri: 'spotify:track:abc' });
    expect(sourceReference('https://tidal.com/browse/track/77')).toEqual({ kind: 'provider', provider: 'tidal', uri: 'tidal:track:77' });
    expect(sourceReference('https://example.com/a.mp3')).toEqual({ kind: 'other', uri: 'https://example.com/a.mp3' });
    expect(sourceReference('spotify:local:Garage+Tapes:Demo+Reel+%2703:First+Take%2C+Rough+Mix:142')).toEqual({
      kind: 'local_file',
      uri: 'spotify:local:Garage+Tapes:Demo+Reel+%2703:First+Take%2C+Rough+Mix:142',
      artist: 'Garage Tapes',
      album: "Demo Reel '03",
      title: 'First Take, Rough Mix',
      seconds: 142,
    });
    expect(sourceReference('spotify:local:broken')).toEqual({ kind: 'local_file', uri: 'spotify:local:broken', artist: '', album: '', title: '', seconds: null });
  });
});

describe('conversions', () => {
  it('reads every safe integer the writers write, and refuses larger ones by name', () => {
    for (const value of [Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, -1e15, 1e15, 0, 42]) expect(integer(String(value), 'source_position')).toEqual({ value });
    expect(integer(' 007 ', 'track_number')).toEqual({ value: 7 });
    for (const text of ['9007199254740992', '-9007199254740993', '9999999999999999']) {
      expect(integer(text, 'source_position').problem).toContain('larger than 9007199254740991');
    }
    for (const text of ['12345678901234567', '1.5', '1e3', 'x']) expect(integer(text, 'source_position').problem).toContain('is not a whole number');
  });

  it('normalises ISRCs to the 12-character uppercase form and keeps other codes as written', () => {
    expect(isrcCode('GB-AAN-97-00044', 'isrc')).toEqual({ value: 'GBAAN9700044' });
    expect(isrcCode(' usrc1 76 07839 ', 'isrc')).toEqual({ value: 'USRC17607839' });
    expect(isrcCode('n/a', 'isrc')).toEqual({ value: 'n/a' });
    expect(isrcCode('', 'isrc')).toEqual({ value: null });
    expect(isrcCode('X'.repeat(33), 'isrc').problem).toContain('longer than 32 characters');
  });

  it('reads milliseconds, and a clock value in a milliseconds column; seconds and clock values in a duration column', () => {
    expect(millisecondsDuration('215493', 'd')).toEqual({ value: 215.493 });
    expect(millisecondsDuration('3:20', 'd')).toEqual({ value: 200 });
    expect(millisecondsDuration('soon', 'd').problem).toContain('not a number of milliseconds');
    expect(clockDuration('1:02:03', 'd')).toEqual({ value: 3723 });
    expect(clockDuration('225.5', 'd')).toEqual({ value: 225.5 });
    expect(clockDuration('2000000', 'd').problem).toContain('longer than the model allows');
  });
});

describe('TrackTableReader', () => {
  const read = (header: string[], rows: string[][]) => {
    const issues = new IssueCollector();
    const table = new TrackTableReader(trackTableColumns(header)!, issues);
    rows.forEach((cells, index) => table.add(index + 2, cells));
    return { tracks: table.finish(), issues: issues.issues() };
  };

  it('needs a title or a link column, and counts the column names it knows', () => {
    expect(trackTableColumns(['Artist', 'Album'])).toBeNull();
    expect(trackTableColumns(['Artist', 'Album', 'URL'])).toMatchObject({ title: undefined, artist: 0, link: 2, width: 3 });
    expect(knownTrackTableColumns(['#', 'Track Title', ' artist ', 'BPM', 'Time'])).toBe(3);
    expect(knownTrackTableColumns(['Queen - Bohemian Rhapsody', 'Live'])).toBe(0);
    expect(trackTableColumns(['  Track   Name ', 'Artist'])).toMatchObject({ title: 0, artist: 1, width: 2 });
  });

  it('knows the duration and album columns of spreadsheets in other languages, as it knows their title and artist', () => {
    expect(trackTableColumns(['Titel', 'Künstler', 'Album', 'Dauer'])).toMatchObject({ title: 0, artist: 1, album: 2, duration: 3 });
    expect(trackTableColumns(['Título', 'Artista', 'Álbum', 'Duración'])).toMatchObject({ title: 0, artist: 1, album: 2, duration: 3 });
    for (const name of ['Länge', 'Spieldauer', 'Durée', 'Duração', 'Durata', 'Duur']) expect(trackTableColumns(['Titre', name])?.duration).toBe(1);
    expect(read(['Titel', 'Künstler', 'Dauer'], [['Halo', 'Beyoncé', '4:21']]).tracks[0]).toMatchObject({ title: 'Halo', duration_s: 261 });
  });

  it('decides the unit of a plain-number duration column once, for the whole column', () => {
    expect(read(['Title', 'Duration'], [['a', '25000'], ['b', '320357']]).tracks.map((track) => track.duration_s)).toEqual([25, 320.357]);
    expect(read(['Title', 'Duration'], [['a', '900'], ['b', '40000']]).tracks.map((track) => track.duration_s)).toEqual([900, 40000]);
    const beyond = read(['Title', 'Duration'], [['a', '2000000000000']]);
    expect(beyond.tracks[0]!.duration_s).toBeNull();
    expect(beyond.issues).toMatchObject([{ line: 2, code: 'invalid_value', column: 2 }]);
    const seconds = read(['Title', 'Duration'], [['a', '10'], ['b', '200'], ['c', '5000000']]);
    expect(seconds.tracks.map((track) => track.duration_s)).toEqual([10, 200, null]);
    expect(seconds.issues).toMatchObject([{ line: 4, code: 'invalid_value', column: 2 }]);
  });

  describe('reads a plain-number duration column as milliseconds when the median of its non-zero numbers is above 36,000', () => {
    const durations = (rows: string[], header = 'Duration') => {
      const result = read(['Title', header], rows.map((value, index) => [`t${index}`, value]));
      return { seconds: result.tracks.map((track) => track.duration_s), codes: result.issues.map((issue) => issue.code) };
    };

    it('a milliseconds column with a 0 (zeros never decide)', () => {
      expect(durations(['213000', '0', '185000'])).toEqual({ seconds: [213, 0, 185], codes: ['duration_in_milliseconds'] });
      expect(durations(['0', '0'])).toEqual({ seconds: [0, 0], codes: [] });
    });

    it('a seconds column of long mixes stays seconds', () => {
      expect(durations(['3600', '5400', '39600'])).toEqual({ seconds: [3600, 5400, 39600], codes: [] });
      expect(durations(['200', '39600'])).toEqual({ seconds: [200, 39600], codes: [] });
    });

    it('one short value (a 500 ms jingle) does not flip a milliseconds column', () => {
      expect(durations(['213000', '3:20', '500'])).toEqual({ seconds: [213, 200, 0.5], codes: ['duration_in_milliseconds'] });
      expect(durations(['25000', '320357', '198000'])).toEqual({ seconds: [25, 320.357, 198], codes: ['duration_in_milliseconds'] });
    });

    it('one warning, at the first value that cannot be seconds, in the duration column', () => {
      const result = read(['Title', 'Artist', 'Duration'], [['a', 'x', '3000'], ['b', 'y', '213000'], ['c', 'z', '185000']]);
      expect(result.issues).toMatchObject([{ line: 3, column: 3, code: 'duration_in_milliseconds', severity: 'warning' }]);
      expect(result.tracks.map((track) => track.duration_s)).toEqual([3, 213, 185]);
    });

    it('a column whose typical value is 36,000 or less is seconds, even if it was meant as milliseconds (name it `Duration (ms)`)', () => {
      expect(durations(['30000', '12000'])).toEqual({ seconds: [30000, 12000], codes: [] });
      expect(durations(['30000', '12000'], 'Duration (ms)')).toEqual({ seconds: [30, 12], codes: [] });
      expect(durations(['213000', '0'], 'Duration (ms)')).toEqual({ seconds: [213, 0], codes: [] });
    });
  });

  it('skips rows with neither title, artist nor a track link (a song page of another service is one)', () => {
    const { tracks, issues } = read(['Title', 'Artist', 'URL'], [['', '', 'https://example.com/x'], ['', '', 'https://open.spotify.com/track/abc'], ['', '', 'https://www.deezer.com/track/3135556'], ['', '', 'https://www.deezer.com/album/302127']]);
    expect(tracks).toMatchObject([
      { title: '', provider_uris: { spotify: 'spotify:track:abc' }, position: 0 },
      { title: '', metadata: { source_uri: 'https://www.deezer.com/track/3135556' }, position: 1 },
    ]);
    expect(issues).toMatchObject([
      { line: 2, code: 'empty_row', severity: 'warning' },
      { line: 5, code: 'empty_row', severity: 'warning' },
    ]);
  });
});

describe('trackSourceUri', () => {
  it('picks a provider URI first, then the URI a reader kept in metadata', () => {
    expect(trackSourceUri({ provider_uris: { tidal: 'tidal:track:1', spotify: 'spotify:track:2' }, metadata: { source_uri: 'https://x' } }, 'spotify')).toBe('spotify:track:2');
    expect(trackSourceUri({ provider_uris: {}, metadata: { source_uri: 'https://x' } }, null)).toBe('https://x');
    expect(trackSourceUri({ provider_uris: {}, metadata: { source_uri: '' } }, null)).toBeNull();
    expect(trackSourceUri({ provider_uris: {}, metadata: {} }, null)).toBeNull();
  });
});

describe('sourceReference and the playlist readers agree', () => {
  it('reads a local-file URI, a track, an episode and collection links as classifyLocation does', () => {
    expect(sourceReference('spotify:local:Daft+Punk:Discovery:One+More+Time:320')).toEqual({ kind: 'local_file', uri: 'spotify:local:Daft+Punk:Discovery:One+More+Time:320', artist: 'Daft Punk', album: 'Discovery', title: 'One More Time', seconds: 320 });
    expect(sourceReference('https://tidal.com/track/53796003/u')).toEqual({ kind: 'provider', provider: 'tidal', uri: 'tidal:track:53796003' });
    expect(sourceReference('spotify:episode:512ojhOuo1ktJprKbVcKyQ')).toMatchObject({ kind: 'provider', provider: 'spotify' });
    for (const uri of ['spotify:album:2noRn2Aes5aoNVsU6iWThc', 'spotify:playlist:37i9dQZF1DXcBWIGoYBM5M', 'tidal:album:1']) expect(sourceReference(uri)).toEqual({ kind: 'other', uri });
  });
});
