import { describe, expect, it } from 'vitest';
import { parse, refusal } from './xspf-test-support.ts';

describe('JSPF', () => {
  const jspf = {
    playlist: {
      title: 'JSPF mix',
      creator: 'Me',
      annotation: 'notes',
      date: '2024-02-03T04:05:06Z',
      identifier: 'spotify:playlist:p1',
      track: [
        { location: ['https://tidal.com/browse/track/42'], title: 'Tidal', creator: 'T', album: 'Al', duration: 2500, trackNum: 4, identifier: ['urn:isrc:USAAA0000002'] },
        { location: 'file:///music/x.flac', title: 'Local string location' },
        { title: 'Ours', extension: { 'https://open-playlist.org/ns/xspf/1': [{ isrc: 'USAAA0000001', explicit: true, artists: ['A', 'B'], provider_uris: { spotify: 'spotify:track:z' }, release_year: 1999, metadata: { k: 1 } }] } },
      ],
    },
  };

  it('parses JSPF by content, whatever the extension', async () => {
    for (const filename of ['mix.jspf', 'mix.json', null]) {
      const result = await parse(JSON.stringify(jspf), filename);
      expect(result.issues).toEqual([]);
      const [playlist] = result.playlists;
      expect(playlist).toMatchObject({ name: 'JSPF mix', owner_name: 'Me', description: 'notes', created_at: '2024-02-03T04:05:06Z', provider_uris: { spotify: 'spotify:playlist:p1' } });
      expect(playlist!.tracks[0]).toMatchObject({ title: 'Tidal', artist: 'T', album: 'Al', duration_s: 2.5, track_number: 4, isrc: 'USAAA0000002', provider_uris: { tidal: 'tidal:track:42' }, metadata: {} });
      expect(playlist!.tracks[1]).toMatchObject({ is_local: true, media_type: 'local_file', metadata: { location: '/music/x.flac', local_path: '/music/x.flac' } });
      expect(playlist!.tracks[2]).toMatchObject({ title: 'Ours', isrc: 'USAAA0000001', explicit: true, artists: ['A', 'B'], provider_uris: { spotify: 'spotify:track:z' }, release_year: 1999, metadata: { k: 1 } });
    }
  });

  it.each([
    ['not JSON', '{"playlist": ', /not valid JSON/],
    ['no playlist object', '{"title": "x"}', /"playlist" object/],
    ['no track list', '{"playlist": {"title": "x"}}', /track must be a list/],
    ['a numeric title', '{"playlist": {"title": 5, "track": []}}', /playlist.title must be a string/],
    ['a string duration', '{"playlist": {"track": [{"duration": "300"}]}}', /track\[0\].duration must be a non-negative whole number/],
    ['a fractional duration', '{"playlist": {"track": [{"duration": 1.5}]}}', /duration/],
    ['a non-object track', '{"playlist": {"track": [1]}}', /track\[0\] must be an object/],
    ['a link whose rel is no URI', '{"playlist": {"link": [{"has space": "http://a.example/"}], "track": []}}', /playlist.link\[0\]'s key \(its rel\) must be a URI/],
    ['a link whose target is no URI', '{"playlist": {"track": [{"link": [{"http://rel.example/x": "not a uri"}]}]}}', /playlist.track\[0\].link\[0\]\["http:\/\/rel.example\/x"\] must be a URI/],
    ['a link that is not an object', '{"playlist": {"link": ["http://a.example/"], "track": []}}', /playlist.link\[0\] must be an object/],
    ['a meta whose rel is no URI', '{"playlist": {"track": [{"meta": [{"a\\\\b": "v"}]}]}}', /track\[0\].meta\[0\]'s key \(its rel\) must be a URI/],
    ['a meta whose value is no string', '{"playlist": {"meta": [{"http://rel.example/n": 5}], "track": []}}', /playlist.meta\[0\]\["http:\/\/rel.example\/n"\] must be a string/],
    ['an attribution entry other than location and identifier', '{"playlist": {"attribution": [{"title": "x"}], "track": []}}', /may hold only "location" and "identifier", not "title"/],
    ['an attribution location that is no URI', '{"playlist": {"attribution": [{"location": "a b"}], "track": []}}', /playlist.attribution\[0\]\["location"\] must be a URI/],
  ])('refuses %s', async (_name, document, reason) => {
    const message = await refusal(document, 'x.jspf');
    expect(message).toMatch(/not a conforming JSPF document/);
    expect(message).toMatch(reason);
  });

  it('reads conforming link, meta and attribution entries (relative rels, free meta text, single objects) and keeps the tracks', async () => {
    const document = {
      playlist: {
        title: 'Linked',
        link: [{ 'http://foaf.example.org/namespace/version1': 'http://socialnetwork.example.org/foaf/mary.rdfs' }],
        meta: [{ playCount: 'any text at all, spaces included' }],
        attribution: [{ location: 'http://bar.example.com/modified_version_of_original_playlist.xspf' }, { identifier: 'somescheme:original_playlist.xspf' }],
        track: [{ title: 'T', creator: 'A', link: { 'http://r.example/': 'http://t.example/' }, meta: [{ 'http://r.example/m': '' }] }],
      },
    };
    const result = await parse(JSON.stringify(document), 'x.jspf');
    expect(result.issues).toEqual([]);
    expect(result.playlists[0]).toMatchObject({ name: 'Linked', tracks: [{ title: 'T', artist: 'A' }] });
  });

  it('survives deeply nested JSON', async () => {
    const deep = `{"playlist": {"track": [], "meta": ${'['.repeat(100_000)}${']'.repeat(100_000)}}}`;
    const result = await parse(deep, 'x.jspf').catch((error: Error) => error);
    // Refused for what it is (a meta entry must be an object), not for a stack overflow.
    expect(result instanceof Error ? result.message : 'parsed').toMatch(/not a conforming JSPF document: playlist.meta\[0\] must be an object/);
  });
});
