import { readdir, readFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentSignature } from '../../../core/services/imports/format-sniffer.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { firstPartyPlugins } from '../support/first-party-plugins.ts';

const FORMATS_DIR = fileURLToPath(new URL('../../../plugins/formats/', import.meta.url));

interface ParseFixture {
  plugin: string;
  file: string;
  input_file: string;
  input?: { filename?: string; media_type?: string };
  expect?: { playlists: unknown[]; issues: unknown[] };
  expect_error?: { type: string; message_includes: string };
}

/** Every `parse-*.json` case of the first-party format plugins: each must give the same result through HTTP. */
async function parseFixtures(): Promise<ParseFixture[]> {
  const fixtures: ParseFixture[] = [];
  for (const plugin of (await readdir(FORMATS_DIR)).sort()) {
    const dir = join(FORMATS_DIR, plugin, 'fixtures');
    for (const file of (await readdir(dir)).filter((name) => name.startsWith('parse-') && name.endsWith('.json')).sort()) {
      const fixture = JSON.parse(await readFile(join(dir, file), 'utf8')) as Omit<ParseFixture, 'plugin' | 'file'>;
      fixtures.push({ plugin, file, ...fixture });
    }
  }
  return fixtures;
}
const FIXTURES = await parseFixtures();

interface Preview {
  id: string;
  kind: string;
  name: string | null;
  format: string;
  expires_at: string;
  playlist_count: number;
  track_count: number;
  playlists: Array<{ name: string; track_count: number; tracks: Array<{ title: string; artist: string }> }>;
  issues: Array<{ line: number | null; code: string; severity: string }>;
}

function spoolEntries(t: TestApp): Promise<string[]> {
  return readdir(t.app.services.imports.preview.spoolDirectory).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
}

function portOf(t: TestApp): number {
  return (t.app.http!.server.address() as AddressInfo).port;
}

describe('import previews through HTTP, with the real format plugins in the sandbox', () => {
  let plugins: Awaited<ReturnType<typeof firstPartyPlugins>>;
  let t: TestApp;
  let small: TestApp;

  beforeAll(async () => {
    plugins = await firstPartyPlugins();
    t = await startTestApp(plugins.env);
    small = await startTestApp({
      ...plugins.env,
      OPL_IMPORT_MAX_BYTES: String(1024 * 1024),
      OPL_IMPORT_MAX_PLAYLISTS: '2',
      OPL_IMPORT_MAX_TRACKS: '5',
      OPL_IMPORT_SPOOL_MEMORY_BYTES: '1024',
    });
  }, 240_000);

  afterAll(async () => {
    await small?.close();
    await t?.close();
    await plugins?.remove();
  });

  const upload = (app: TestApp, body: Buffer | string, options: { filename?: string; contentType?: string; headers?: Record<string, string> } = {}) =>
    app.app.http!.inject({
      method: 'POST',
      url: `/api/imports/preview${options.filename === undefined ? '' : `?filename=${encodeURIComponent(options.filename)}`}`,
      headers: { 'content-type': options.contentType ?? 'application/octet-stream', ...options.headers },
      payload: body,
    });

  const textPreview = (app: TestApp, body: Record<string, unknown>) => app.app.http!.inject({ method: 'POST', url: '/api/imports/text-preview', payload: body });

  it('covers every parse fixture of every first-party format plugin', () => {
    expect(new Set(FIXTURES.map((fixture) => fixture.plugin))).toEqual(new Set(['csv', 'itunes-library', 'json', 'm3u8', 'pls', 'txt', 'wpl', 'xml', 'xspf']));
    expect(FIXTURES.length).toBeGreaterThanOrEqual(30);
  });

  it.each(FIXTURES.map((fixture) => [`${fixture.plugin}/${fixture.file}`, fixture] as const))('%s reads through POST /api/imports/preview', async (_name, fixture) => {
    const bytes = await readFile(join(FORMATS_DIR, fixture.plugin, 'fixtures', fixture.input_file));
    const response = await upload(t, bytes, { filename: fixture.input?.filename ?? `${fixture.input_file.replace(/^.*\//, '').replace(/\.[^.]*$/, '')}.${fixture.plugin}`, contentType: fixture.input?.media_type ?? 'application/octet-stream' });
    // A fixture of content another format declares (an XSPF named .wpl, refused by the WPL plugin
    // itself) is read by that format's plugin when uploaded: the content decides (reader-choice.ts).
    const declared = contentSignature(bytes);
    if (declared !== undefined && declared !== fixture.plugin) {
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json<Preview>().format).toBe(declared);
      return;
    }
    if (fixture.expect_error) {
      expect(response.statusCode, response.body).toBe(422);
      expect(response.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(response.json<{ code: string; detail: string }>()).toMatchObject({ code: 'unprocessable_content' });
      expect(response.json<{ detail: string }>().detail).toContain(fixture.expect_error.message_includes);
      return;
    }
    const expected = fixture.expect!;
    if (expected.playlists.length === 0) {
      expect(response.statusCode, response.body).toBe(422);
      expect(response.json()).toMatchObject({ code: 'unprocessable_content', playlist_count: 0, issues: expected.issues });
      return;
    }
    expect(response.statusCode, response.body).toBe(201);
    const preview = response.json<Preview>();
    expect(preview).toMatchObject({ kind: 'file', format: fixture.plugin, issues: expected.issues });
    const full = await t.app.http!.inject({ method: 'GET', url: `/api/imports/${preview.id}` });
    expect(full.statusCode).toBe(200);
    expect(full.json()).toMatchObject({ id: preview.id, playlists: expected.playlists, issues: expected.issues });
  });

  it('reads M3U8 in UTF-8, UTF-16 and Latin-1 (line-level issues: see the m3u8 parse-malformed fixture above)', async () => {
    const utf8 = await upload(t, '#EXTM3U\n#EXTINF:200,Sigur Rós - Hoppípolla\nhttps://open.spotify.com/track/abc\n#EXTINF:180,Björk - Jóga\nlocal.mp3\n', { filename: 'nordic.m3u8' });
    expect(utf8.statusCode, utf8.body).toBe(201);
    expect(utf8.json<Preview>().playlists[0]!.tracks.map((track) => `${track.artist} - ${track.title}`)).toEqual(['Sigur Rós - Hoppípolla', 'Björk - Jóga']);
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('#EXTM3U\n#EXTINF:251,宇多田ヒカル - First Love\nfirst-love.mp3\n', 'utf16le')]);
    const u16 = await upload(t, utf16, { filename: 'jp.m3u8' });
    expect(u16.statusCode, u16.body).toBe(201);
    expect(u16.json<Preview>().playlists[0]!.tracks[0]).toMatchObject({ artist: '宇多田ヒカル', title: 'First Love' });
    const latin1 = Buffer.from('#EXTM3U\n#EXTINF:200,Mot\xf6rhead - Ace of Spades\nace.mp3\n', 'latin1');
    const l1 = await upload(t, latin1, { filename: 'metal.m3u' });
    expect(l1.statusCode, l1.body).toBe(201);
    expect(l1.json<Preview>().playlists[0]!.tracks[0]).toMatchObject({ artist: 'Motörhead', title: 'Ace of Spades' });
    // Read as windows-1252, and said so: a file in another legacy code page would be misread.
    expect(l1.json<Preview>().issues).toEqual([expect.objectContaining({ code: 'legacy_encoding', severity: 'warning' })]);
    expect(utf8.json<Preview>().issues).toEqual([]);
  });

  it('stores text PostgreSQL cannot hold (NUL, an unpaired surrogate) from a file as U+FFFD instead of failing', async () => {
    const csv = await upload(t, 'title,artist\nhello\u0000world,bob\n', { filename: 'nul.csv' });
    expect(csv.statusCode, csv.body).toBe(201);
    expect(csv.json<Preview>().playlists[0]!.tracks[0]).toMatchObject({ title: 'hello\ufffdworld', artist: 'bob' });
    const bundle = JSON.stringify({ schema_version: 1, playlists: [{ name: 'Bad \ud800 name', tracks: [{ title: 'a\u0000', artist: 'b', metadata: { 'k\udc00': 'v' } }] }] });
    const json = await upload(t, bundle, { filename: 'odd.json' });
    expect(json.statusCode, json.body).toBe(201);
    const preview = json.json<Preview>();
    expect(preview.playlists[0]).toMatchObject({ name: 'Bad \ufffd name', tracks: [{ title: 'a\ufffd', artist: 'b', metadata: { 'k\ufffd': 'v' } }] });
    // Stored as shown: the record reads back the same.
    const stored = await t.app.http!.inject({ method: 'GET', url: `/api/imports/${preview.id}` });
    expect(stored.statusCode, stored.body).toBe(200);
    expect(stored.json<Preview>().playlists[0]!.tracks[0]!.title).toBe('a\ufffd');
  });

  it('refuses a JSON body holding text that cannot be stored with a 400 naming where it is', async () => {
    for (const [text, what] of [
      ['one\u0000two', 'NUL'],
      ['one\ud800two', 'unpaired UTF-16 surrogate'],
    ] as const) {
      const response = await textPreview(t, { text: `Artist - ${text}`, name: 'Pasted' });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json<{ code: string; detail: string; path: string }>()).toMatchObject({ code: 'malformed_body', path: 'body.text' });
      expect(response.json<{ detail: string }>().detail).toContain(what);
    }
    const key = await textPreview(t, { text: 'Artist - Title', name: 'Pasted', ['x\u0000']: 1 });
    expect(key.statusCode, key.body).toBe(400);
    expect(key.json<{ path: string }>().path).toBe('body["x\\u0000"] (the key)');
  });

  it('detects the format from the content when the name says nothing, and takes the name from headers', async () => {
    const cases: Array<[string, string]> = [
      ['#EXTM3U\n#EXTINF:1,A - B\nb.mp3\n', 'm3u8'],
      ['[playlist]\nFile1=http://radio.example/stream\nTitle1=Radio\nNumberOfEntries=1\nVersion=2\n', 'pls'],
      ['<?xml version="1.0" encoding="UTF-8"?><playlist version="1" xmlns="http://xspf.org/ns/0/"><trackList><track><title>T</title><creator>C</creator></track></trackList></playlist>', 'xspf'],
      ['{"playlist":{"title":"J","track":[{"title":"T","creator":"C"}]}}', 'xspf'],
      ['{"schema_version":1,"playlists":[{"name":"B","tracks":[{"title":"T","artist":"A"}]}]}', 'json'],
      ['Title;Artist\nT;A\n', 'csv'],
      ['Daft Punk - One More Time\n', 'txt'],
      ['<?wpl version="1.0"?>\r\n<smil><head><title>W</title></head><body><seq><media src="C:\\Music\\A - T.mp3"/></seq></body></smil>', 'wpl'],
      ['<smil><body><seq><media src="file:///D:/Music/A%20-%20T.mp3"/></seq></body></smil>', 'wpl'],
      [
        '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n<plist version="1.0"><dict><key>Tracks</key><dict><key>1</key><dict><key>Track ID</key><integer>1</integer><key>Name</key><string>T</string></dict></dict><key>Playlists</key><array><dict><key>Name</key><string>P</string><key>Playlist Items</key><array><dict><key>Track ID</key><integer>1</integer></dict></array></dict></array></dict></plist>',
        'itunes-library',
      ],
    ];
    for (const [body, format] of cases) {
      const response = await upload(t, body, { headers: { 'x-filename': encodeURIComponent('upload.bin') } });
      expect(response.statusCode, `${format}: ${response.body}`).toBe(201);
      expect(response.json<Preview>()).toMatchObject({ format, name: 'upload.bin' });
    }
    const disposition = await upload(t, 'A - B\n', { headers: { 'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent('Mix ü.txt')}` } });
    expect(disposition.json<Preview>()).toMatchObject({ name: 'Mix ü.txt', format: 'txt' });
    const binary = await upload(t, Buffer.from([0x00, 0x01, 0x02, 0xff, 0x00, 0x10]), { filename: 'noise.bin' });
    expect(binary.statusCode).toBe(415);
    expect(binary.json()).toMatchObject({ code: 'unsupported_media_type', readable_formats: expect.arrayContaining(['csv', 'm3u8', 'xspf']) });
    const empty = await upload(t, '', { filename: 'empty.m3u8' });
    expect(empty.statusCode).toBe(422);
    const controlName = await upload(t, 'A - B', { filename: 'bad\u0007name.txt' });
    expect(controlName.statusCode).toBe(400);
  });

  it('strips directories from the file name', async () => {
    const response = await upload(t, 'A - B\n', { filename: '../../etc/My List.txt' });
    expect(response.json<Preview>()).toMatchObject({ name: 'My List.txt', playlists: [{ name: 'My List' }] });
  });

  it('refuses an XML entity bomb with a clear 422 and stores nothing', async () => {
    const bomb = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]><playlist version="1" xmlns="http://xspf.org/ns/0/"><trackList><track><title>&lol3;</title></track></trackList></playlist>`;
    const before = await t.app.services.database.orm.em.getConnection().execute<Array<{ n: string }>>('select count(*)::int as n from import_record');
    const response = await upload(t, bomb, { filename: 'bomb.xspf' });
    expect(response.statusCode).toBe(422);
    expect(response.json<{ detail: string }>().detail).toMatch(/DOCTYPE is not accepted/);
    const after = await t.app.services.database.orm.em.getConnection().execute<Array<{ n: string }>>('select count(*)::int as n from import_record');
    expect(after).toEqual(before);
  });

  it('reads a WPL and an iTunes / Apple Music Library.xml by their names; paths stay data, system lists and folders are reported', async () => {
    const wpl = await upload(t, await readFile(join(FORMATS_DIR, 'wpl', 'fixtures', 'road-trip.wpl')), { filename: 'Road Trip.wpl' });
    expect(wpl.statusCode, wpl.body).toBe(201);
    expect(wpl.json<Preview>()).toMatchObject({ format: 'wpl', playlist_count: 1, track_count: 7, issues: [], playlists: [{ name: 'Route du Sud — été' }] });
    const library = await upload(t, await readFile(join(FORMATS_DIR, 'itunes-library', 'fixtures', 'Library.xml')), { filename: 'Library.xml' });
    expect(library.statusCode, library.body).toBe(201);
    const preview = library.json<Preview>();
    expect(preview).toMatchObject({ format: 'itunes-library', playlist_count: 3, track_count: 12 });
    expect(preview.playlists.map((playlist) => [playlist.name, playlist.tracks.map((track) => track.title)])).toEqual([
      ['Library', ['Harbour Lights', 'Ünder Glass', '花束を君に', 'Episode 12: Field Recordings', 'Harbour Lights (Official Video)']],
      ['Road Trip — été', ['Harbour Lights', 'Ünder Glass', '花束を君に', 'Harbour Lights', 'Episode 12: Field Recordings']],
      ['Recently Loved', ['花束を君に', 'Harbour Lights (Official Video)']],
    ]);
    expect(preview.issues.map((issue) => issue.code)).toEqual(['system_playlist_skipped', 'folder_skipped', 'missing_track']);
    const full = (await t.app.http!.inject({ method: 'GET', url: `/api/imports/${preview.id}` })).json<{ playlists: Array<{ kind: string; metadata: Record<string, unknown>; tracks: Array<{ media_type: string; unsupported_reason: string | null }> }> }>();
    expect(full.playlists[0]!.kind).toBe('LIKED_TRACKS');
    expect(full.playlists[1]!.metadata).toMatchObject({ folder: 'Voyages ✈' });
    expect(full.playlists[1]!.tracks[4]).toMatchObject({ media_type: 'episode', unsupported_reason: expect.stringContaining('podcast') as unknown });
  });

  it('reads an XSPF or WPL saved as .xml by its root element, not as a library', async () => {
    const xspf = await upload(t, '<?xml version="1.0"?><playlist version="1" xmlns="http://xspf.org/ns/0/"><title>Saved as XML</title><trackList><track><title>T</title><creator>C</creator></track></trackList></playlist>', { filename: 'mix.xml' });
    expect(xspf.statusCode, xspf.body).toBe(201);
    expect(xspf.json()).toMatchObject({ format: 'xspf', playlists: [{ name: 'Saved as XML' }] });
    const wpl = await upload(t, '<?wpl version="1.0"?><smil><head><title>W</title></head><body><seq><media src="C:\\Music\\A - T.mp3"/></seq></body></smil>', { filename: 'list.xml' });
    expect(wpl.statusCode, wpl.body).toBe(201);
    expect(wpl.json()).toMatchObject({ format: 'wpl' });
  });

  it('reads what the content declares whatever the name: JSPF saved as .json, M3U as .txt, PLS as .m3u', async () => {
    const jspf = await upload(t, JSON.stringify({ playlist: { title: 'JSPF named json', track: [{ title: 'T', creator: 'C' }] } }), { filename: 'mix.json' });
    expect(jspf.statusCode, jspf.body).toBe(201);
    expect(jspf.json()).toMatchObject({ format: 'xspf', playlists: [{ name: 'JSPF named json', tracks: [{ title: 'T', artist: 'C' }] }] });
    const m3u = await upload(t, '#EXTM3U\n#EXTINF:200,Daft Punk - One More Time\nC:\\Music\\one.mp3\n', { filename: 'list.txt' });
    expect(m3u.statusCode, m3u.body).toBe(201);
    expect(m3u.json()).toMatchObject({ format: 'm3u8', playlists: [{ tracks: [{ artist: 'Daft Punk', title: 'One More Time', duration_s: 200 }] }] });
    const pls = await upload(t, '[playlist]\nFile1=http://radio.example/live\nTitle1=Radio\nNumberOfEntries=1\n', { filename: 'radio.m3u' });
    expect(pls.statusCode, pls.body).toBe(201);
    expect(pls.json()).toMatchObject({ format: 'pls', playlists: [{ tracks: [{ title: 'Radio' }] }] });
  });

  it('reads a generic XML export by its content, whatever its name, and refuses it hostile', async () => {
    const body = '<?xml version="1.0"?>\n<playlists><playlist name="One"><track title="T" artist="A" duration="3:59" uri="spotify:track:4uLU6hMCjMI75M1A2tKUQC"/></playlist><playlist name="Two"><track><title>U</title></track></playlist></playlists>';
    for (const filename of ['export.xml', 'export.txt']) {
      const response = await upload(t, body, { filename });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json<Preview>()).toMatchObject({ format: 'xml', playlist_count: 2, track_count: 2, playlists: [{ name: 'One', tracks: [{ title: 'T', duration_s: 239 }] }, { name: 'Two', tracks: [{ title: 'U', artist: '' }] }] });
    }
    const bomb = '<?xml version="1.0"?><!DOCTYPE playlists [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><playlists><playlist name="&c;"><track title="&c;"/></playlist></playlists>';
    const xxe = '<!DOCTYPE playlists [<!ENTITY x SYSTEM "file:///etc/passwd">]><playlists><playlist name="&x;"/></playlists>';
    for (const hostile of [bomb, xxe]) {
      const response = await upload(t, hostile, { filename: 'export.xml' });
      expect(response.statusCode, response.body).toBe(422);
      expect(response.json<{ code: string; detail: string }>()).toMatchObject({ code: 'unprocessable_content', detail: expect.stringMatching(/DOCTYPE is not accepted/) as unknown });
    }
  });

  it('refuses hostile or foreign XML under the Library.xml and WPL names with a clear 422', async () => {
    const plist = '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd"';
    const cases: Array<[string, string, RegExp]> = [
      [`${plist} [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><plist version="1.0"><dict><key>&b;</key><dict/></dict></plist>`, 'Library.xml', /DOCTYPE other than <!DOCTYPE plist PUBLIC/],
      ['<!DOCTYPE plist SYSTEM "file:///etc/passwd"><plist version="1.0"><dict><key>Tracks</key><dict/></dict></plist>', 'Library.xml', /DOCTYPE other than/],
      ['<?xml version="1.0"?><plist version="1.0"><array><string>not a library</string></array></plist>', 'Library.xml', /not an iTunes \/ Apple Music library/],
      ['<?wpl version="1.0"?><!DOCTYPE smil [<!ENTITY x SYSTEM "file:///etc/passwd">]><smil><head><title>&x;</title></head></smil>', 'x.wpl', /DOCTYPE is not accepted/],
    ];
    for (const [body, filename, detail] of cases) {
      const response = await upload(t, body, { filename });
      expect(response.statusCode, response.body).toBe(422);
      expect(response.json<{ code: string; detail: string }>()).toMatchObject({ code: 'unprocessable_content', detail: expect.stringMatching(detail) as unknown });
    }
  });

  describe('pasted text', () => {
    it('reads "Artist - Title" lines deterministically: comments and blanks ignored, duplicates and Unicode kept', async () => {
      const text = '# my list\n\nDaft Punk - One More Time\nRöyksopp – Eple\n  \nDaft Punk - One More Time\n宇多田ヒカル — First Love\nJust A Title\n';
      const first = await textPreview(t, { text, name: 'Road Trip' });
      expect(first.statusCode, first.body).toBe(201);
      const preview = first.json<Preview>();
      expect(preview).toMatchObject({ kind: 'text', format: 'txt', name: 'Road Trip', playlist_count: 1, track_count: 5, playlists: [{ name: 'Road Trip' }] });
      expect(preview.playlists[0]!.tracks.map((track) => [track.artist, track.title])).toEqual([
        ['Daft Punk', 'One More Time'],
        ['Röyksopp', 'Eple'],
        ['Daft Punk', 'One More Time'],
        ['宇多田ヒカル', 'First Love'],
        ['', 'Just A Title'],
      ]);
      const again = (await textPreview(t, { text, name: 'Road Trip' })).json<Preview>();
      expect(again.playlists).toEqual(preview.playlists);
      expect(again.id).not.toBe(preview.id);
    });

    it('reads a CSV or semicolon table with a header, ignoring comment lines and keeping valid neighbours of malformed rows', async () => {
      const csv = await textPreview(t, { text: '# exported by hand\nTitle,Artist,Album\nOne More Time,Daft Punk,Discovery\n"Broken, row",X,Y,Z,extra\nEple,Röyksopp,Melody A.M.\n', name: 'Table' });
      expect(csv.statusCode, csv.body).toBe(201);
      const preview = csv.json<Preview>();
      expect(preview).toMatchObject({ format: 'csv', track_count: 2 });
      expect(preview.playlists[0]!.tracks.map((track) => track.title)).toEqual(['One More Time', 'Eple']);
      expect(preview.issues).toEqual(expect.arrayContaining([expect.objectContaining({ line: 4, code: 'too_many_cells', severity: 'error' })]));
      const semicolon = await textPreview(t, { text: 'Artist;Title\nNena;99 Luftballons\nNena;99 Luftballons\n' });
      expect(semicolon.json<Preview>()).toMatchObject({ format: 'csv', track_count: 2 });
    });

    it('reads TXT v1 text and refuses text without tracks', async () => {
      const txt = await readFile(join(FORMATS_DIR, 'txt', 'fixtures', 'malformed-rows.txt'), 'utf8');
      const response = await textPreview(t, { text: txt });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json<Preview>()).toMatchObject({ format: 'txt', track_count: 3, issues: expect.arrayContaining([expect.objectContaining({ line: 5, code: 'too_many_cells' })]) });
      const nothing = await textPreview(t, { text: '# only a comment\n\n' });
      expect(nothing.statusCode).toBe(422);
      expect(nothing.json()).toMatchObject({ code: 'unprocessable_content', track_count: 0 });
      const tooBig = await textPreview(small, { text: 'A - B\n'.repeat(200_000) });
      expect(tooBig.statusCode).toBe(413);
    });
  });

  describe('records', () => {
    it('GET returns every track and DELETE removes the record', async () => {
      const lines = Array.from({ length: 60 }, (_, index) => `Artist ${index} - Song ${index}`).join('\n');
      const preview = (await textPreview(t, { text: lines, name: 'Sixty' })).json<Preview>();
      expect(preview.playlists[0]!.tracks).toHaveLength(25);
      expect(preview.playlists[0]!.track_count).toBe(60);
      const full = await t.app.http!.inject({ method: 'GET', url: `/api/imports/${preview.id}` });
      expect(full.json<Preview>().playlists[0]!.tracks).toHaveLength(60);
      const deleted = await t.app.http!.inject({ method: 'DELETE', url: `/api/imports/${preview.id}` });
      expect(deleted.statusCode).toBe(204);
      expect((await t.app.http!.inject({ method: 'GET', url: `/api/imports/${preview.id}` })).statusCode).toBe(404);
      expect((await t.app.http!.inject({ method: 'DELETE', url: `/api/imports/${preview.id}` })).statusCode).toBe(404);
      expect((await t.app.http!.inject({ method: 'GET', url: '/api/imports/not-a-uuid' })).json()).toMatchObject({ code: 'not_found' });
    });

    it('answers 410 for an expired record and 409 when deleting a queued one', async () => {
      const preview = (await textPreview(t, { text: 'A - B\n' })).json<Preview>();
      const connection = t.app.services.database.orm.em.getConnection();
      await connection.execute(`update import_record set expires_at = now() - interval '1 minute' where id = ?`, [preview.id]);
      const gone = await t.app.http!.inject({ method: 'GET', url: `/api/imports/${preview.id}` });
      expect(gone.statusCode).toBe(410);
      expect(gone.json()).toMatchObject({ code: 'gone' });
      const queued = (await textPreview(t, { text: 'C - D\n' })).json<Preview>();
      await t.app.services.imports.records.claimForJob('local', queued.id, crypto.randomUUID());
      const conflict = await t.app.http!.inject({ method: 'DELETE', url: `/api/imports/${queued.id}` });
      expect(conflict.statusCode).toBe(409);
      expect((await t.app.http!.inject({ method: 'GET', url: `/api/imports/${queued.id}` })).json()).toMatchObject({ state: 'queued' });
    });
  });

  describe('limits', () => {
    it('refuses too many playlists and too many tracks with 422 and the counts', async () => {
      const bundle = (count: number, tracks: number) =>
        JSON.stringify({ schema_version: 1, playlists: Array.from({ length: count }, (_, p) => ({ name: `P${p}`, tracks: Array.from({ length: tracks }, (_, i) => ({ title: `T${i}`, artist: 'A' })) })) });
      const playlists = await upload(small, bundle(3, 1), { filename: 'many.json' });
      expect(playlists.statusCode).toBe(422);
      expect(playlists.json()).toMatchObject({ code: 'unprocessable_content', playlist_count: 3, max_playlists: 2 });
      expect(playlists.json<{ detail: string }>().detail).toMatch(/OPL_IMPORT_MAX_PLAYLISTS/);
      const tracks = await upload(small, bundle(2, 3), { filename: 'long.json' });
      expect(tracks.statusCode).toBe(422);
      expect(tracks.json()).toMatchObject({ track_count: 6, max_tracks: 5 });
      const textTracks = await textPreview(small, { text: 'A - 1\nA - 2\nA - 3\nA - 4\nA - 5\nA - 6\n' });
      expect(textTracks.json()).toMatchObject({ track_count: 6, max_tracks: 5 });
    });

    it('refuses a declared Content-Length over the limit before reading the body', async () => {
      const response = await upload(small, Buffer.alloc(1024 * 1024 + 1, 0x41), { filename: 'big.txt' });
      expect(response.statusCode).toBe(413);
      expect(response.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(response.json()).toMatchObject({ code: 'payload_too_large', max_bytes: 1024 * 1024 });
    });

    it('spools past the memory threshold to a private file and removes it after success and after an error', async () => {
      const lines = Array.from({ length: 5 }, (_, index) => `Artist ${index} - ${'Long title '.repeat(100)}${index}`).join('\n');
      expect(Buffer.byteLength(lines)).toBeGreaterThan(4096);
      const ok = await upload(small, lines, { filename: 'long.txt' });
      expect(ok.statusCode, ok.body).toBe(201);
      // The directory exists because the upload spilled to disk; the file itself is gone.
      expect(await readdir(small.app.services.imports.preview.spoolDirectory)).toEqual([]);
      const bad = await upload(small, `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "${'a'.repeat(8000)}">]><playlist/>`, { filename: 'bad.xspf' });
      expect(bad.statusCode).toBe(422);
      expect(await spoolEntries(small)).toEqual([]);
    });

    it('stops a 200 MB chunked upload at the byte limit with 413, without buffering it (real HTTP)', { timeout: 120_000 }, async () => {
      const total = 200 * 1024 * 1024;
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      const rssBefore = process.memoryUsage().rss;
      let sent = 0;
      let peakRss = rssBefore;
      const result = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest({
          host: '127.0.0.1',
          port: portOf(small),
          method: 'POST',
          path: '/api/imports/preview?filename=huge.txt',
          headers: { 'content-type': 'application/octet-stream', 'transfer-encoding': 'chunked' },
        });
        let answered = false;
        req.on('response', (response) => {
          answered = true;
          let body = '';
          response.setEncoding('utf8');
          response.on('data', (data: string) => (body += data));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
        });
        // Once the server answers and closes, the rest of the upload fails to write: expected.
        req.on('error', (error) => {
          if (!answered) reject(error);
        });
        const pump = () => {
          while (sent < total && !answered) {
            sent += chunk.length;
            peakRss = Math.max(peakRss, process.memoryUsage().rss);
            if (!req.write(chunk)) {
              req.once('drain', pump);
              return;
            }
          }
          if (sent >= total) req.end();
        };
        pump();
      });
      expect(result.status).toBe(413);
      expect(JSON.parse(result.body)).toMatchObject({ code: 'payload_too_large', max_bytes: 1024 * 1024 });
      expect(sent).toBeLessThan(total);
      // The server and this client share the process: all 200 MB in memory would show here.
      expect(peakRss - rssBefore).toBeLessThan(64 * 1024 * 1024);
      expect(await spoolEntries(small)).toEqual([]);
    });

    it('removes the spooled data when the client aborts mid-upload', async () => {
      await new Promise<void>((resolve) => {
        const req = httpRequest({
          host: '127.0.0.1',
          port: portOf(small),
          method: 'POST',
          path: '/api/imports/preview?filename=aborted.txt',
          headers: { 'content-type': 'text/plain', 'transfer-encoding': 'chunked' },
        });
        req.on('error', () => resolve());
        req.write(Buffer.alloc(200 * 1024, 0x62), () => {
          setTimeout(() => {
            req.destroy();
            resolve();
          }, 200);
        });
      });
      await expect.poll(() => spoolEntries(small), { timeout: 5_000 }).toEqual([]);
      // The engine still answers normally afterwards.
      expect((await upload(small, 'A - B\n', { filename: 'after.txt' })).statusCode).toBe(201);
    });
  });
});
