import { runParse } from '@opl/plugin-sdk/testing';
import { describe, expect, it } from 'vitest';
import plugin from './index.ts';

const encoder = new TextEncoder();

describe('hostile files are refused with a clear issue, never a crash or a hang', () => {
  // A hang guard, not a speed check (speed is `npm run bench`): a scan that were not linear would take hours.
  it('a nesting bomb of 1,000,000 brackets', { timeout: 60_000 }, async () => {
    const parsed = await runParse(plugin, '['.repeat(1_000_000) + ']'.repeat(1_000_000));
    expect(parsed.playlists).toEqual([]);
    expect(parsed.issues).toEqual([expect.objectContaining({ code: 'too_deeply_nested', line: 1, column: 65, severity: 'error' })]);
    expect(parsed.issues[0]?.message).toContain('more than 64 levels');
  });

  it('a bomb hidden in a track’s metadata, unterminated, after line breaks', async () => {
    const text = `{"schema_version":1,"playlists":[{"name":"P","tracks":[{"title":"t","artist":"a","metadata":{"x":\n${'{"a":'.repeat(200_000)}`;
    const parsed = await runParse(plugin, text);
    expect(parsed.issues).toEqual([expect.objectContaining({ code: 'too_deeply_nested', line: 2 })]);
  });

  it('brackets inside strings, escaped quotes included, do not count as nesting', async () => {
    const title = `${'['.repeat(400)}\\"${'{'.repeat(400)}`;
    const parsed = await runParse(plugin, `[{"name":"${title}","tracks":[]}]`);
    expect(parsed.issues).toEqual([]);
    expect(parsed.playlists[0]?.name).toBe(`${'['.repeat(400)}"${'{'.repeat(400)}`);
  });

  it('a 50 MB string value: the playlist is refused, the file read', async () => {
    const text = `{"schema_version":1,"playlists":[{"name":"${'a'.repeat(50 * 1024 * 1024)}"},{"name":"fine"}]}`;
    const parsed = await runParse(plugin, text);
    expect(parsed.playlists.map((playlist) => playlist.name)).toEqual(['fine']);
    expect(parsed.issues).toEqual([expect.objectContaining({ code: 'invalid_playlist', message: '/playlists/0: name must be at most 1000 characters' })]);
  });

  it('a 50 MB single line that is not JSON', async () => {
    const parsed = await runParse(plugin, 'x'.repeat(50 * 1024 * 1024));
    expect(parsed.issues).toEqual([expect.objectContaining({ code: 'invalid_json', line: 1, column: 1 })]);
    expect(parsed.issues[0]!.message.length).toBeLessThan(300);
    expect(parsed.issues[0]!.message).not.toContain('xxxxxxxx');
  });

  it('invalid UTF-8 is refused with its line, while a real U+FFFD is kept', async () => {
    const good = encoder.encode('[{"name":"ok \uFFFD",\n"tracks":[]}]');
    expect((await runParse(plugin, good)).playlists[0]?.name).toBe('ok \uFFFD');
    const bad = new Uint8Array([...encoder.encode('[{"name":"ok",\n"tracks":[{"title":"'), 0xc3, 0x28, ...encoder.encode('","artist":"a"}]}]')]);
    const parsed = await runParse(plugin, bad);
    expect(parsed.playlists).toEqual([]);
    expect(parsed.issues).toEqual([expect.objectContaining({ code: 'invalid_utf8', line: 2, column: 21 })]);
    // Overlong and surrogate encodings are malformed too.
    for (const bytes of [[0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82]]) {
      const file = new Uint8Array([...encoder.encode('["'), ...bytes, ...encoder.encode('"]')]);
      expect((await runParse(plugin, file)).issues.map((issue) => issue.code)).toEqual(['invalid_utf8']);
    }
  });

  it('binary garbage', async () => {
    let seed = 7;
    const garbage = new Uint8Array(1024 * 1024).map(() => (seed = (seed * 1_103_515_245 + 12_345) >>> 0) >>> 24);
    const parsed = await runParse(plugin, garbage);
    expect(parsed.playlists).toEqual([]);
    expect(parsed.issues).toHaveLength(1);
    expect(['invalid_utf8', 'invalid_json']).toContain(parsed.issues[0]?.code);
    const ascii = garbage.map((byte) => byte & 0x7f);
    const asciiParsed = await runParse(plugin, ascii);
    expect(asciiParsed.issues.map((issue) => issue.code)).toEqual(['invalid_json']);
    expect(asciiParsed.issues[0]?.message).not.toMatch(/\p{Cc}/u);
  });
});
