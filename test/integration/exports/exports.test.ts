import { exportManifestSchema, openPlaylistBundleSchema } from '@opl/plugin-sdk/schemas';
import { describe, expect, it } from 'vitest';
import { expectZip64End } from './export-test-kit.ts';
import { importExportTestApp, playlist, run, track, type Problem } from './import-export-app.ts';

describe('POST /api/exports from import records, with the real format plugins in the sandbox', () => {
  const ctx = importExportTestApp();
  const { record, exportOf, eventuallyEmpty, unzip, roadTrip } = ctx;

  it.each([
    ['csv', 'text/csv; charset=utf-8', '.csv'],
    ['txt', 'text/plain; charset=utf-8', '.txt'],
    ['m3u8', 'application/vnd.apple.mpegurl', '.m3u8'],
    ['xspf', 'application/xspf+xml', '.xspf'],
    ['json', 'application/vnd.open-playlist+json', '.json'],
  ])('one playlist as %s: the file itself with its headers', async (format, contentType, extension) => {
    const id = await record([roadTrip()]);
    const response = await exportOf({ source_provider: 'import', source_account_id: id, format });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe(contentType);
    expect(response.headers['content-disposition']).toBe(`attachment; filename="Road Trip_ Ete _${extension}"; filename*=UTF-8''${encodeURIComponent('Road Trip_ Été ☀')}${extension}`);
    expect(response.headers['content-length']).toBe(String(response.rawPayload.length));
    expect(response.headers['x-open-playlist-schema-version']).toBe('1');
    expect(response.headers['x-open-playlist-warning-count']).toBe('0');
    const text = response.rawPayload.toString('utf8');
    expect(text).toContain('Alpha');
    expect(text).toContain('Bravo');
    if (format === 'csv') {
      expect(response.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
      expect(text).toContain(`"'=cmd|calc"`);
    }
    if (format === 'json') {
      const bundle = openPlaylistBundleSchema.parse(JSON.parse(text));
      expect(bundle.$schema).toBe('https://engine.example.test/schemas/export/open-playlist-bundle-v1.json');
      expect(bundle.playlists[0]!.tracks.map((item) => item.title)).toEqual(['Alpha', 'Bravo', '=cmd|calc']);
    }
    if (format === 'm3u8') expect(text).toContain('https://open.spotify.com/track/');
    await eventuallyEmpty();
  });

  it('several playlists: a ZIP64 archive that unzip -t accepts, with file-name rules and a valid manifest', async () => {
    const playlists = [
      playlist('Mix', [track('One')], { id: 'a' }),
      playlist('MIX', [track('Two')], { id: 'b' }),
      playlist('../../etc/passwd', [track('Three')], { id: 'c' }),
      playlist('CON', [track('Four')], { id: 'd' }),
      playlist('', [track('Five')], { id: 'empty-name-id' }),
      playlist('Trailing dots...  ', [], { id: 'f' }),
    ];
    const id = await record(playlists, 'My Library.m3u8');
    const response = await exportOf({ source_provider: 'import', source_account_id: id, format: 'csv' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="My Library.zip"; filename*=UTF-8''My%20Library.zip`);
    expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);
    // ZIP64 end of central directory record and locator in their places, pointing at each other and at the central directory.
    expectZip64End(response.rawPayload, 7);
    const { tested, names, manifest } = await unzip(response.rawPayload);
    expect(tested).toMatch(/No errors detected/);
    const files = ['Mix.csv', 'MIX-2.csv', 'etc passwd.csv', '_CON.csv', 'empty-name-id.csv', 'Trailing dots.csv'];
    expect(names).toEqual([...files, 'manifest.json']);
    const parsed = exportManifestSchema.parse(manifest);
    expect(parsed).toMatchObject({
      $schema: 'https://engine.example.test/schemas/export/open-playlist-export-manifest-v1.json',
      schema_version: 1,
      format: 'csv',
      source_provider: 'import',
      playlist_count: 6,
    });
    expect(parsed.entries.map((entry) => [entry.playlist_id, entry.filename, entry.status, entry.track_count, entry.warning_codes])).toEqual([
      ['a', 'Mix.csv', 'ok', 1, []],
      ['b', 'MIX-2.csv', 'ok', 1, []],
      ['c', 'etc passwd.csv', 'ok', 1, []],
      ['d', '_CON.csv', 'ok', 1, []],
      ['empty-name-id', 'empty-name-id.csv', 'ok', 1, []],
      ['f', 'Trailing dots.csv', 'warning', 0, ['empty_playlist']],
    ]);
    expect(parsed.warnings).toEqual([expect.objectContaining({ code: 'empty_playlist', playlist_id: 'f' })]);
    expect(response.headers['x-open-playlist-warning-count']).toBe('1');
    await eventuallyEmpty();
  });

  it('several playlists as json: open-playlist-bundle.json plus manifest.json', async () => {
    const id = await record([playlist('One', [track('A')]), playlist('Two', [track('B'), track('C')])]);
    const response = await exportOf({ source_provider: 'import', source_account_id: id, format: 'json' });
    expect(response.statusCode, response.body).toBe(200);
    const { names, manifest, file } = await unzip(response.rawPayload);
    expect(names).toEqual(['open-playlist-bundle.json', 'manifest.json']);
    const parsed = exportManifestSchema.parse(manifest);
    expect(parsed.entries.map((entry) => [entry.playlist_id, entry.filename, entry.track_count])).toEqual([
      ['0', 'open-playlist-bundle.json', 1],
      ['1', 'open-playlist-bundle.json', 2],
    ]);
    const bundle = openPlaylistBundleSchema.parse(JSON.parse((await run('unzip', ['-p', file, 'open-playlist-bundle.json'])).stdout));
    expect(bundle.playlists.map((item) => item.tracks.length)).toEqual([1, 2]);
  });

  it('POST /open-playlists/export/file (the Open Playlist API\'s name for it) answers exactly as /api/exports', async () => {
    const id = await record([playlist('One', [track('A')]), playlist('Two', [track('B'), track('C')])]);
    const body = { source_provider: 'import', source_account_id: id, format: 'csv', selection: { playlist_ids: ['1'] } };
    const [ours, theirs] = await Promise.all([exportOf(body), ctx.t.app.http!.inject({ method: 'POST', url: '/open-playlists/export/file', payload: body })]);
    expect(theirs.statusCode, theirs.body).toBe(200);
    expect(theirs.rawPayload.equals(ours.rawPayload)).toBe(true);
    for (const header of ['content-type', 'content-disposition', 'content-length', 'x-open-playlist-schema-version', 'x-open-playlist-warning-count']) expect(theirs.headers[header], header).toBe(ours.headers[header]);
    // Its refusals are the same problems too.
    const unknown = await ctx.t.app.http!.inject({ method: 'POST', url: '/open-playlists/export/file', payload: { ...body, format: 'wav' } });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json()).toMatchObject({ reason: 'unknown_format' });
  });

  it('without a selection, every playlist of the import, also two that share an id', async () => {
    // E.g. a CSV v1 file holding the same playlist twice (a whole export and a partial one) reads back as two.
    const id = await record([
      playlist('Twice', [track('A'), track('B')], { id: 'dup' }),
      playlist('Other', [track('C')], { id: 'other' }),
      playlist('Twice', [track('A')], { id: 'dup' }),
      playlist('No Id', [track('D'), track('E'), track('F')]),
    ]);
    // The import record names each playlist uniquely: the later "dup" by its id and index.
    const shown = await ctx.t.app.http!.inject({ method: 'GET', url: `/api/imports/${id}` });
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.json<{ collection_ids: string[] }>().collection_ids).toEqual(['dup', 'other', 'dup#2', '3']);

    const response = await exportOf({ source_provider: 'import', source_account_id: id, format: 'csv' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    const { names, manifest } = await unzip(response.rawPayload);
    expect(names).toEqual(['Twice.csv', 'Other.csv', 'Twice-2.csv', 'No Id.csv', 'manifest.json']);
    expect(exportManifestSchema.parse(manifest).entries.map((entry) => [entry.playlist_id, entry.filename, entry.track_count])).toEqual([
      ['dup', 'Twice.csv', 2],
      ['other', 'Other.csv', 1],
      ['dup#2', 'Twice-2.csv', 1],
      ['3', 'No Id.csv', 3],
    ]);
    // A selection names a playlist by its collection id, as POST /api/migrations does: "dup" is the first, "dup#2" the later one.
    const tracksOf = async (playlistIds: string[]) => {
      const selected = await exportOf({ source_provider: 'import', source_account_id: id, format: 'json', selection: { playlist_ids: playlistIds } });
      expect(selected.statusCode, selected.body).toBe(200);
      // One playlist is the bundle itself; several are a ZIP with open-playlist-bundle.json.
      const json = playlistIds.length === 1 ? selected.body : (await run('unzip', ['-p', (await unzip(selected.rawPayload)).file, 'open-playlist-bundle.json'])).stdout;
      return openPlaylistBundleSchema.parse(JSON.parse(json)).playlists.map((item) => item.tracks.map((entry) => entry.title));
    };
    expect(await tracksOf(['dup'])).toEqual([['A', 'B']]);
    expect(await tracksOf(['dup#2'])).toEqual([['A']]);
    expect(await tracksOf(['dup#2', '3', 'dup'])).toEqual([['A'], ['D', 'E', 'F'], ['A', 'B']]);
    const partial = await exportOf({ source_provider: 'import', source_account_id: id, format: 'csv', selection: { playlist_ids: [], tracks: { 'dup#2': ['pos:0'], dup: ['pos:1'] } } });
    expect(partial.statusCode, partial.body).toBe(200);
    // "dup#2" has one track, so selecting it leaves nothing out: not partial.
    expect(exportManifestSchema.parse((await unzip(partial.rawPayload)).manifest).entries.map((entry) => [entry.playlist_id, entry.track_count, entry.warning_codes])).toEqual([
      ['dup#2', 1, []],
      ['dup', 1, ['partial_selection']],
    ]);
    // An index alone names only a playlist without an id: "2" is not the later "dup".
    const unknown = await exportOf({ source_provider: 'import', source_account_id: id, format: 'json', selection: { playlist_ids: ['2'] } });
    expect(unknown.statusCode, unknown.body).toBe(422);
    expect(unknown.json<Problem>().reason).toBe('invalid_selection');
    expect(unknown.json<Problem>().detail).toMatch(/no playlist "2"; its playlists are "dup", "other", "dup#2", "3"/);
    await eventuallyEmpty();
  });

  it('xspf with several playlists writes one document per playlist', async () => {
    const id = await record([playlist('One', [track('A')]), playlist('Two', [track('B')])]);
    const response = await exportOf({ source_provider: 'import', source_account_id: id, format: 'xspf' });
    expect(response.statusCode, response.body).toBe(200);
    expect((await unzip(response.rawPayload)).names).toEqual(['One.xspf', 'Two.xspf', 'manifest.json']);
  });

  describe('warnings, each from a real scenario', () => {
    it('partial_selection: only the selected tracks (by position, track id or entry id), in playlist order', async () => {
      const id = await record([
        playlist('Picked', [track('A', { id: 't1' }), track('B', { id: 't2' }), track('C', { id: 't3' })], { id: 'p1' }),
        playlist('Whole', [track('D')], { id: 'p2' }),
      ]);
      const byPosition = await exportOf({ source_provider: 'import', source_account_id: id, format: 'json', selection: { playlist_ids: [], tracks: { p1: ['pos:2', 'pos:0'] } } });
      expect(byPosition.statusCode, byPosition.body).toBe(200);
      const bundle = openPlaylistBundleSchema.parse(byPosition.json());
      expect(bundle.playlists[0]!.tracks.map((item) => item.title)).toEqual(['A', 'C']);
      expect(bundle.warnings).toEqual([expect.objectContaining({ code: 'partial_selection', playlist_id: 'p1', count: 2 })]);
      expect(byPosition.headers['x-open-playlist-warning-count']).toBe('1');

      const byId = await exportOf({ source_provider: 'import', source_account_id: id, format: 'csv', selection: { playlist_ids: ['p2', 'p1'], tracks: { p1: ['t2'] } } });
      expect(byId.statusCode, byId.body).toBe(200);
      const { names, manifest } = await unzip(byId.rawPayload);
      expect(names).toEqual(['Whole.csv', 'Picked.csv', 'manifest.json']);
      const parsed = exportManifestSchema.parse(manifest);
      expect(parsed.entries.map((entry) => [entry.playlist_id, entry.track_count, entry.warning_codes])).toEqual([
        ['p2', 1, []],
        ['p1', 1, ['partial_selection']],
      ]);
    });

    it('warning messages speak of one track in the singular', async () => {
      const id = await record([playlist('Pair', [track('Linked'), track('Bare', { provider_uris: {} })], { id: 'pair' }), playlist('Other', [track('X'), track('Talk', { media_type: 'episode' })], { id: 'o' })]);
      const response = await exportOf({ source_provider: 'import', source_account_id: id, format: 'xspf', selection: { playlist_ids: ['o'], tracks: { pair: ['pos:1'] } } });
      expect(response.statusCode, response.body).toBe(200);
      const messages = exportManifestSchema.parse((await unzip(response.rawPayload)).manifest).warnings.map((warning) => [warning.code, warning.message]);
      expect(messages).toEqual([
        ['unsupported_items', '"Other" holds 1 item that streaming services cannot play or migrate (episode); it is exported as it is.'],
        ['partial_selection', 'Only 1 of the 2 tracks of "Pair" was selected and exported.'],
        ['missing_source_uri', '1 track of "Pair" has no link a player can open (a Spotify or TIDAL track, or a web address), so this xspf file cannot play it.'],
      ]);
    });

    it('empty_playlist: an empty playlist, and a selection of no tracks', async () => {
      const id = await record([playlist('Nothing', [], { id: 'e1' })]);
      const response = await exportOf({ source_provider: 'import', source_account_id: id, format: 'csv' });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['x-open-playlist-warning-count']).toBe('1');
      expect(response.rawPayload.toString('utf8').trim().split('\n')).toHaveLength(2); // header + one metadata-only row

      const subset = await record([playlist('Some', [track('A')], { id: 's1' })]);
      const none = await exportOf({ source_provider: 'import', source_account_id: subset, format: 'json', selection: { playlist_ids: ['s1'], tracks: { s1: [] } } });
      expect(none.statusCode, none.body).toBe(200);
      expect(openPlaylistBundleSchema.parse(none.json()).warnings.map((warning) => warning.code)).toEqual(['partial_selection', 'empty_playlist']);
    });

    it('unsupported_items: episodes, videos, local files and unknown media', async () => {
      const id = await record([
        playlist('Mixed', [
          track('Song'),
          track('Podcast', { media_type: 'episode' }),
          track('Clip', { media_type: 'video' }),
          track('Home demo', { media_type: 'local_file', is_local: true, provider_uris: {} }),
          track('Mystery', { media_type: 'unknown' }),
        ], { id: 'mixed' }),
      ]);
      const response = await exportOf({ source_provider: 'import', source_account_id: id, format: 'json' });
      expect(response.statusCode, response.body).toBe(200);
      const warnings = openPlaylistBundleSchema.parse(response.json()).warnings;
      expect(warnings).toEqual([expect.objectContaining({ code: 'unsupported_items', playlist_id: 'mixed', count: 4 })]);
      expect(warnings[0]!.message).toMatch(/episode, video, local_file, unknown/);
    });

    it.each(['m3u8', 'xspf'])('missing_source_uri for %s (and not for csv)', async (format) => {
      const id = await record([playlist('Links', [track('Linked'), track('Bare', { provider_uris: {} }), track('Blank', { provider_uris: { tidal: '' } })], { id: 'links' })]);
      const response = await exportOf({ source_provider: 'import', source_account_id: id, format });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['x-open-playlist-warning-count']).toBe('1');
      // A Deezer URI is kept in the file's metadata, but neither writer makes a playable location of
      // it: that track counts as missing too. A web address (a provider's, or the location a track
      // was imported with) is a location as it is.
      const several = await record([
        playlist('Links', [track('Bare', { provider_uris: {} }), track('Deezer only', { provider_uris: { deezer: 'deezer:track:3135556' } }), track('Web', { provider_uris: { youtube: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' } }), track('Radio', { provider_uris: {}, metadata: { location: 'https://radio.example/stream.mp3' } })], { id: 'links' }),
        playlist('Fine', [track('Ok')], { id: 'fine' }),
      ]);
      const archive = await exportOf({ source_provider: 'import', source_account_id: several, format });
      const parsed = exportManifestSchema.parse((await unzip(archive.rawPayload)).manifest);
      expect(parsed.warnings).toEqual([expect.objectContaining({ code: 'missing_source_uri', playlist_id: 'links', count: 2 })]);
      expect(parsed.entries.map((entry) => entry.warning_codes)).toEqual([['missing_source_uri'], []]);
      const csv = await exportOf({ source_provider: 'import', source_account_id: id, format: 'csv' });
      expect(csv.headers['x-open-playlist-warning-count']).toBe('0');
    });
  });
});
