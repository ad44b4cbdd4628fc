import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { firstPartyPlugins } from '../support/first-party-plugins.ts';

/**
 * Large and hostile uploads as a hosted instance receives them, through HTTP with the real format
 * plugins in the sandbox: every refusal names its limit and the variable that sets it, limits are
 * held before the expensive work, and ordinary uploads cannot wear a reader down to quarantine.
 */

interface Problem {
  status: number;
  code: string;
  detail: string;
  [key: string]: unknown;
}

const upload = (app: TestApp, body: Buffer | string, filename: string) =>
  app.app.http!.inject({ method: 'POST', url: `/api/imports/preview?filename=${encodeURIComponent(filename)}`, headers: { 'content-type': 'application/octet-stream' }, payload: body });

/** An M3U of `count` one-character entries: 2 bytes a track, the densest playlist there is. */
const denseM3u = (count: number) => 'a\n'.repeat(count);

/**
 * An iTunes library of one song whose fields are as long as the reader keeps them (about 35,000
 * characters as a track), named `references` times by one playlist (55 bytes each).
 */
function referenceBomb(references: number): string {
  const field = (key: string, length: number) => `<key>${key}</key><string>${key[0]!.repeat(length)}</string>`;
  const song =
    '<key>1</key><dict><key>Track ID</key><integer>1</integer>' +
    ['Name', 'Artist', 'Album', 'Genre', 'Composer'].map((key) => field(key, 2_000)).join('') +
    ['Album Artist', 'Kind', 'Persistent ID'].map((key) => field(key, 1_000)).join('') +
    `<key>Location</key><string>file:///${'p'.repeat(9_990)}.mp3</string></dict>`;
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0"><dict><key>Tracks</key><dict>' +
    song +
    '</dict><key>Playlists</key><array><dict><key>Playlist ID</key><integer>2</integer><key>Name</key><string>P</string><key>Playlist Items</key><array>\n' +
    '<dict><key>Track ID</key><integer>1</integer></dict>\n'.repeat(references) +
    '</array></dict></array></dict></plist>\n'
  );
}

describe('hostile and large uploads', () => {
  let plugins: Awaited<ReturnType<typeof firstPartyPlugins>>;

  beforeAll(async () => {
    plugins = await firstPartyPlugins();
  }, 240_000);

  afterAll(async () => {
    await plugins?.remove();
  });

  describe('a reader that breaks its sandbox limits', () => {
    let t: TestApp;

    beforeAll(async () => {
      // A 16 MiB sandbox reads 100,000 one-character M3U entries but not 400,000; the track limit is out of the way.
      t = await startTestApp({ ...plugins.env, OPL_PLUGIN_MEMORY_MB: '16', OPL_PLUGIN_QUARANTINE_STRIKES: '2', OPL_IMPORT_MAX_TRACKS: '1000000' });
    }, 120_000);

    afterAll(() => t?.close());

    it('answers 422 naming OPL_PLUGIN_MEMORY_MB, and once quarantined says the reader is switched off (not that the file is bad)', async () => {
      for (let strike = 1; strike <= 2; strike++) {
        const response = await upload(t, denseM3u(400_000), 'dense.m3u');
        expect(response.statusCode, response.body).toBe(422);
        expect(response.headers['content-type']).toMatch(/application\/problem\+json/);
        const problem = response.json<Problem>();
        expect(problem).toMatchObject({ code: 'unprocessable_content', format: 'm3u8', reader_failure: 'memory', limit: 'OPL_PLUGIN_MEMORY_MB' });
        expect(problem.detail).toMatch(/ran out of memory.*OPL_PLUGIN_MEMORY_MB/s);
      }
      // Two strikes: quarantined. Whether the catalogue has dropped the reader yet or the host refuses the call,
      // the answer says the reader is off on this server, never that the file cannot be read.
      await expect
        .poll(async () => {
          const response = await upload(t, '#EXTM3U\nhttps://example.org/one.mp3\n', 'small.m3u');
          return { status: response.statusCode, detail: response.json<Problem>().detail };
        // The catalogue drops the reader when the quarantine event reaches it, which on a busy machine
        // takes longer than expect.poll's default second; until then the host's 503 says the same.
        }, { timeout: 30_000, interval: 200 })
        .toMatchObject({ status: 415, detail: expect.stringMatching(/no m3u8 reader is loaded on this server.*quarantine/s) });
      const after = await upload(t, '#EXTM3U\nhttps://example.org/one.mp3\n', 'small.m3u');
      expect(after.json()).toMatchObject({ code: 'unsupported_media_type', unavailable_format: 'm3u8' });
      // Other readers are untouched.
      expect((await upload(t, 'Daft Punk - One More Time\n', 'list.txt')).statusCode).toBe(201);
    });
  });

  describe('uploads at the same time', () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await startTestApp({ ...plugins.env, OPL_PLUGIN_MEMORY_MB: '16' });
    }, 120_000);

    afterAll(() => t?.close());

    it('reads concurrent files that each fit the sandbox alone, without a strike against the reader', async () => {
      // Alone, 50,000 entries fit a 16 MiB sandbox; two at once in the reader's one isolate did not.
      const alone = await upload(t, denseM3u(50_000), 'alone.m3u');
      expect(alone.statusCode, alone.body).toBe(201);
      const responses = await Promise.all(Array.from({ length: 4 }, (_, index) => upload(t, denseM3u(50_000), `together-${index}.m3u`)));
      expect(responses.map((response) => response.statusCode)).toEqual([201, 201, 201, 201]);
      expect(responses.map((response) => response.json<{ track_count: number }>().track_count)).toEqual([50_000, 50_000, 50_000, 50_000]);
      expect(t.logs.join('').includes('exceeded its memory limit')).toBe(false);
    });
  });

  describe('limits before the expensive work', () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await startTestApp({ ...plugins.env, OPL_IMPORT_MAX_BYTES: String(1024 * 1024), OPL_IMPORT_MAX_TRACKS: '1000' });
    }, 120_000);

    afterAll(() => t?.close());

    const entries = (count: number) => Array.from({ length: count }, (_, index) => index);
    const files: Record<string, (count: number) => string> = {
      'dense.m3u': (count) => denseM3u(count),
      'list.txt': (count) => entries(count).map((index) => `Artist - Title ${index}`).join('\n'),
      'table.csv': (count) => `title,artist\n${entries(count).map((index) => `T${index},A`).join('\n')}\n`,
      'radio.pls': (count) => `[playlist]\n${entries(count).map((index) => `File${index + 1}=https://example.org/${index}.mp3`).join('\n')}\nNumberOfEntries=${count}\nVersion=2\n`,
      'list.wpl': (count) => `<?wpl version="1.0"?><smil><body><seq>${entries(count).map((index) => `<media src="https://example.org/${index}.mp3"/>`).join('')}</seq></body></smil>`,
      'list.xspf': (count) => `<playlist version="1" xmlns="http://xspf.org/ns/0/"><trackList>${entries(count).map((index) => `<track><title>T${index}</title></track>`).join('')}</trackList></playlist>`,
      'bundle.json': (count) => JSON.stringify({ schema_version: 1, playlists: [{ name: 'P', tracks: entries(count).map((index) => ({ title: `T${index}`, artist: 'A' })) }] }),
    };

    it.each(Object.keys(files))('refuses %s declaring far more tracks than OPL_IMPORT_MAX_TRACKS before its reader runs', async (name) => {
      const response = await upload(t, files[name]!(2_001), name);
      expect(response.statusCode, response.body).toBe(422);
      const problem = response.json<Problem>();
      expect(problem).toMatchObject({ code: 'unprocessable_content', estimated_track_count: 2_001, max_tracks: 1_000 });
      expect(problem.detail).toMatch(/OPL_IMPORT_MAX_TRACKS/);
      // At the limit the same file is read as before.
      const ok = await upload(t, files[name]!(1_000), name);
      expect(ok.statusCode, ok.body).toBe(201);
      expect(ok.json()).toMatchObject({ track_count: 1_000 });
    });

    it('counts CSV rows, not the lines of their quoted multi-line cells', async () => {
      const rows = entries(1_000).map((index) => `T${index},A,"a note\nover\nthree lines"`);
      const response = await upload(t, `title,artist,notes\n${rows.join('\n')}\n`, 'notes.csv');
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json()).toMatchObject({ track_count: 1_000 });
    });

    it('refuses a small file that reads into more than an import record may hold, instead of storing what cannot be read back', async () => {
      // 200 references to one song of long fields: 56 kB of XML, about 7 million characters of tracks.
      const bomb = referenceBomb(200);
      expect(bomb.length).toBeLessThan(64 * 1024);
      const response = await upload(t, bomb, 'Library.xml');
      expect(response.statusCode, response.body.slice(0, 500)).toBe(422);
      const problem = response.json<Problem>();
      expect(problem).toMatchObject({ code: 'unprocessable_content', format: 'itunes-library', track_count: 200, max_stored_chars: 4 * 1024 * 1024 });
      expect(problem.stored_chars).toBeGreaterThan(4 * 1024 * 1024);
      expect(problem.detail).toMatch(/OPL_IMPORT_MAX_BYTES/);
      // Nothing was stored.
      const list = await t.app.http!.inject({ method: 'GET', url: '/api/imports' });
      expect(list.json<{ imports: Array<{ format: string }> }>().imports.filter((record) => record.format === 'itunes-library')).toEqual([]);
      // A few references are an ordinary library.
      expect((await upload(t, referenceBomb(20), 'Library.xml')).statusCode).toBe(201);
    });
  });
});
