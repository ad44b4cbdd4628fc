import { runParse, runSerialize } from '@opl/plugin-sdk/testing';
import { describe, expect, it } from 'vitest';
import plugin from './index.ts';

const bundle = (body: Record<string, unknown>): string =>
  JSON.stringify({ $schema: 'https://open-playlist.org/schemas/export/open-playlist-bundle-v1.json', schema_version: 1, source_provider: null, playlists: [], warnings: [], ...body });

describe('reading bundles', () => {
  it.each([2, 0, '1', 1.5, null])('refuses schema_version %j with one clear issue and no playlists', async (version) => {
    const parsed = await runParse(plugin, bundle({ schema_version: version, playlists: [{ name: 'Never read', tracks: [] }] }));
    expect(parsed.playlists).toEqual([]);
    expect(parsed.issues).toHaveLength(1);
    expect(parsed.issues[0]).toMatchObject({ code: 'unsupported_schema_version', severity: 'error' });
    expect(parsed.issues[0]?.message).toContain('schema_version 1 only');
  });

  it('refuses a bundle whose $schema names another version when schema_version is missing', async () => {
    const parsed = await runParse(plugin, JSON.stringify({ $schema: 'https://example.org/schemas/export/open-playlist-bundle-v2.json', playlists: [] }));
    expect(parsed.issues.map((issue) => issue.code)).toEqual(['unsupported_schema_version']);
  });

  it('reads a bundle without schema_version as v1, with a warning', async () => {
    const parsed = await runParse(plugin, JSON.stringify({ playlists: [{ name: 'Old', tracks: [{ title: 'T', artist: 'A' }] }] }));
    expect(parsed.playlists).toHaveLength(1);
    expect(parsed.issues).toEqual([expect.objectContaining({ code: 'missing_schema_version', severity: 'warning' })]);
  });

  it('hands the bundle\'s source_provider on, so bundle → bundle keeps it; one that is no provider key is left out with a warning', async () => {
    const parsed = await runParse(plugin, bundle({ source_provider: 'spotify', playlists: [{ name: 'From Spotify', tracks: [] }] }));
    expect(parsed.source_provider).toBe('spotify');
    expect(parsed.issues).toEqual([]);
    const written = await runSerialize(plugin, parsed.playlists, { source_provider: parsed.source_provider });
    expect(JSON.parse(written.text)).toMatchObject({ source_provider: 'spotify' });
    expect((await runParse(plugin, bundle({ playlists: [{ name: 'N', tracks: [] }] }))).source_provider).toBeUndefined();
    const odd = await runParse(plugin, bundle({ source_provider: 'Not A Key!', playlists: [{ name: 'N', tracks: [] }] }));
    expect(odd.source_provider).toBeUndefined();
    expect(odd.issues).toEqual([expect.objectContaining({ code: 'invalid_value', severity: 'warning', message: expect.stringContaining('/source_provider') as unknown })]);
  });

  it('reports a bad track by its JSON Pointer and keeps its neighbours', async () => {
    const tracks = Array.from({ length: 8 }, (_, index) => ({ title: `Song ${index}`, artist: 'A' }));
    tracks[5] = { title: 42, artist: 'A' } as never;
    tracks[6] = { title: 'Bad date', artist: 'A', added_at: 'yesterday' } as never;
    const parsed = await runParse(plugin, bundle({ playlists: [{ name: 'P', tracks }] }));
    expect(parsed.playlists[0]?.tracks.map((track) => track.title)).toEqual(['Song 0', 'Song 1', 'Song 2', 'Song 3', 'Song 4', 'Song 7']);
    expect(parsed.issues.map((issue) => issue.message)).toEqual([
      '/playlists/0/tracks/5: title must be a string',
      '/playlists/0/tracks/6: added_at must be an RFC 3339 date-time with seconds and an offset',
    ]);
    expect(parsed.issues.every((issue) => issue.code === 'invalid_track' && issue.severity === 'error')).toBe(true);
  });

  it('leaves out a playlist whose own fields are invalid and keeps the others', async () => {
    const parsed = await runParse(plugin, bundle({ playlists: [{ name: 'Good' }, { name: 'Bad kind', kind: 'ALBUM' }, 'not an object', { tracks: [] }, { name: 'Also good' }] }));
    expect(parsed.playlists.map((playlist) => playlist.name)).toEqual(['Good', 'Also good']);
    expect(parsed.issues.map((issue) => issue.message)).toEqual([
      '/playlists/1: kind must be one of PLAYLIST, LIKED_TRACKS',
      '/playlists/2: a playlist must be a JSON object',
      '/playlists/3: name is required',
    ]);
  });

  it('checks nested values: credits, provider URIs, metadata keys, limits', async () => {
    const tracks = [
      { title: 'a', artist: 'b', credits: [{ role: 'producer' }] },
      { title: 'a', artist: 'b', provider_uris: { spotify: 5 } },
      { title: 'a', artist: 'b', metadata: [] },
      { title: 'x'.repeat(2_001), artist: 'b' },
      { title: 'a', artist: 'b', duration_s: -1 },
      { title: 'a', artist: 'b', release_date: '2020-1' },
      { title: 'ok', artist: 'b', credits: [{ role: 'producer', name: 'N', extra: true }] },
    ];
    const parsed = await runParse(plugin, bundle({ playlists: [{ name: 'P', tracks }] }));
    expect(parsed.issues.map((issue) => issue.message)).toEqual([
      '/playlists/0/tracks/0: credits item 0 needs a name',
      '/playlists/0/tracks/1: provider_uris key "spotify" must be a string',
      '/playlists/0/tracks/2: metadata must be an object',
      '/playlists/0/tracks/3: title must be at most 2000 characters',
      '/playlists/0/tracks/4: duration_s must be between 0 and 1000000 seconds',
      '/playlists/0/tracks/5: release_date must be YYYY, YYYY-MM or YYYY-MM-DD',
    ]);
    expect(parsed.playlists[0]?.tracks).toEqual([expect.objectContaining({ title: 'ok', credits: [{ role: 'producer', name: 'N', instrument: null, uri: null }] })]);
  });

  it('ignores fields the model does not know, warning once per field name', async () => {
    const parsed = await runParse(plugin, bundle({ playlists: [{ name: 'P', color: 'red', tracks: [{ title: 'a', artist: 'b', bpm: 120 }, { title: 'c', artist: 'd', bpm: 90 }] }] }));
    expect(parsed.playlists[0]?.tracks).toHaveLength(2);
    expect(parsed.playlists[0]).not.toHaveProperty('color');
    expect(parsed.issues.map((issue) => [issue.code, issue.severity, issue.message])).toEqual([
      ['unknown_field', 'warning', '/playlists/0: the playlist field "color" is not part of the model and was ignored (reported once)'],
      ['unknown_field', 'warning', '/playlists/0/tracks/0: the track field "bpm" is not part of the model and was ignored (reported once)'],
    ]);
  });

  it('turns the export warnings a bundle carries into warning issues', async () => {
    const parsed = await runParse(plugin, bundle({ warnings: [{ code: 'partial_selection', message: 'only selected tracks were exported', playlist_id: 'p1' }] }));
    expect(parsed.issues).toEqual([{ line: null, column: null, code: 'export_warning', severity: 'warning', message: 'the export recorded partial_selection (playlist p1): only selected tracks were exported' }]);
  });

  it('reads a bare array of playlists and a single playlist object (lenient import)', async () => {
    const array = await runParse(plugin, JSON.stringify([{ name: 'One', tracks: [{ title: 't', artist: 'a' }] }, { name: 'Two' }]));
    expect(array.playlists.map((playlist) => [playlist.name, playlist.tracks.length])).toEqual([['One', 1], ['Two', 0]]);
    expect(array.issues).toEqual([]);
    const single = await runParse(plugin, JSON.stringify({ name: 'Solo', tracks: [{ title: 1, artist: 'a' }, { title: 't', artist: 'a' }] }));
    expect(single.playlists.map((playlist) => playlist.tracks.length)).toEqual([1]);
    expect(single.issues.map((issue) => issue.message)).toEqual(['/tracks/0: title must be a string']);
  });

  it('refuses JSON that holds no playlists, and an export manifest, with a reason', async () => {
    for (const text of ['42', '"text"', 'null', 'true']) {
      expect((await runParse(plugin, text)).issues.map((issue) => issue.code)).toEqual(['not_a_playlist_bundle']);
    }
    const manifest = await runParse(plugin, JSON.stringify({ $schema: 'https://open-playlist.org/schemas/export/open-playlist-export-manifest-v1.json', schema_version: 1, entries: [] }));
    expect(manifest.issues[0]?.message).toContain('manifest.json');
  });

  it('refuses a JSPF playlist (XSPF as JSON, as ListenBrainz writes it) by what it is, not for a missing name', async () => {
    const jspf = { playlist: { title: 'Weekly Jams', creator: 'listenbrainz', track: [{ identifier: ['https://musicbrainz.org/recording/8f3471b5-7e6a-48da-86a9-c1c07a0f47ae'], title: 'Strangers', creator: 'Portishead' }] } };
    const parsed = await runParse(plugin, JSON.stringify(jspf, null, 2), { filename: 'weekly-jams.json' });
    expect(parsed.playlists).toEqual([]);
    expect(parsed.issues).toEqual([expect.objectContaining({ code: 'not_a_playlist_bundle', severity: 'error' })]);
    expect(parsed.issues[0]?.message).toMatch(/JSPF.*XSPF/);
    // A playlist of our own that merely has a field called "playlist" is still read as one.
    expect((await runParse(plugin, JSON.stringify({ name: 'Mine', playlist: {}, tracks: [] }))).playlists.map((playlist) => playlist.name)).toEqual(['Mine']);
  });

  it('reports a syntax error with its line and column', async () => {
    const parsed = await runParse(plugin, '{\n  "schema_version": 1,\n  "playlists": [,]\n}');
    expect(parsed.playlists).toEqual([]);
    expect(parsed.issues).toEqual([expect.objectContaining({ code: 'invalid_json', line: 3, column: 17 })]);
    expect(parsed.issues[0]?.message).toMatch(/^the file is not valid JSON at line 3, column 17: /);
    expect((await runParse(plugin, '  \n')).issues).toEqual([expect.objectContaining({ code: 'invalid_json', message: 'the file is empty' })]);
  });

  it('bounds the issue list: 1,000 bad tracks give 200 issues and a summary', async () => {
    const tracks = Array.from({ length: 1_000 }, () => ({ title: null, artist: 'a' }));
    const parsed = await runParse(plugin, bundle({ playlists: [{ name: 'P', tracks: [...tracks, { title: 'kept', artist: 'a' }] }] }));
    expect(parsed.issues).toHaveLength(201);
    expect(parsed.issues.at(-1)).toMatchObject({ code: 'too_many_issues', message: '800 more issues were found but not listed (only the first 200 are)' });
    expect(parsed.playlists[0]?.tracks.map((track) => track.title)).toEqual(['kept']);
  });

  it('accepts a UTF-8 byte order mark and UTF-16 files with a byte order mark', async () => {
    const { text } = await runSerialize(plugin, [{ name: 'Ünïcødé 🎵', tracks: [{ title: '花束を君に', artist: 'x' }] }]);
    const utf8 = new TextEncoder().encode(text);
    const withBom = await runParse(plugin, new Uint8Array([0xef, 0xbb, 0xbf, ...utf8]));
    const utf16 = new Uint8Array(2 + text.length * 2);
    utf16.set([0xff, 0xfe]);
    for (let index = 0; index < text.length; index++) new DataView(utf16.buffer).setUint16(2 + index * 2, text.charCodeAt(index), true);
    const fromUtf16 = await runParse(plugin, utf16);
    for (const parsed of [withBom, fromUtf16]) {
      expect(parsed.issues).toEqual([]);
      expect(parsed.playlists[0]?.name).toBe('Ünïcødé 🎵');
    }
  });
});
