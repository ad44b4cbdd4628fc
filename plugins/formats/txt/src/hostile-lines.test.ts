import { runParse, runSerialize } from '@opl/plugin-sdk/testing';
import { describe, expect, it } from 'vitest';
import plugin from './index.ts';
import { TXT_V1_COLUMNS } from './txt-columns.ts';

const encoder = new TextEncoder();
const parse = (text: string) => runParse(plugin, encoder.encode(text), { filename: 'list.txt', mediaType: 'text/plain' });
const FIFTY_MB = 50 * 1024 * 1024;

// Hang guards (the timeouts), not speed checks.
describe('opl.format.txt: a 50 MB line', () => {
  it('is skipped with an error naming its line and length; its neighbours are kept', { timeout: 120_000 }, async () => {
    const huge = 'A'.repeat(FIFTY_MB);
    const plain = await parse(`Artist - One\n${huge}\nArtist - Two\n`);
    expect(plain.playlists[0]!.tracks.map((track) => track.title)).toEqual(['One', 'Two']);
    expect(plain.issues).toMatchObject([{ line: 2, code: 'line_too_long', severity: 'error' }]);
    expect(plain.issues[0]!.message).toContain(`line 2 is ${FIFTY_MB} characters long`);

    const table = await parse(`Title\tArtist\nOne\tA\n${huge}\nTwo\tB\n`);
    expect(table.playlists[0]!.tracks.map((track) => track.title)).toEqual(['One', 'Two']);
    expect(table.issues).toMatchObject([{ line: 3, code: 'line_too_long' }]);
  });

  it('alone, or after the v1 header, refuses the file instead of importing a track named by it', { timeout: 120_000 }, async () => {
    const huge = 'A'.repeat(FIFTY_MB);
    for (const [text, line] of [[huge, 1], [`# Open Playlist TXT v1\n${TXT_V1_COLUMNS.join('\t')}\n${huge}\n`, 3]] as const) {
      const result = await parse(text);
      expect(result.playlists).toEqual([]);
      const errors = result.issues.filter((issue) => issue.severity === 'error');
      expect(errors).toMatchObject([
        { line, code: 'line_too_long' },
        { line: null, code: 'nothing_readable' },
      ]);
    }
  });
});

describe('opl.format.txt: its own export', () => {
  it('reads back whatever control characters the values hold', async () => {
    const titles = ['\u0001'.repeat(40), 'a\u0000b', '\u001b[31m red \u0007', '\u0000'.repeat(300)];
    const { text } = await runSerialize(plugin, [{ name: 'P\u0002', tracks: titles.map((title) => ({ title, artist: 'A\u0003' })) }]);
    const { playlists, issues } = await parse(text);
    expect(issues).toEqual([]);
    expect(playlists[0]).toMatchObject({ name: 'P\u0002' });
    expect(playlists[0]!.tracks.map((track) => [track.title, track.artist])).toEqual(titles.map((title) => [title, 'A\u0003']));
    // The same controls in a file that is not our export are still binary.
    const other = await parse(`Artist - ${'\u0001'.repeat(40)}\n`);
    expect(other).toMatchObject({ playlists: [], issues: [{ code: 'binary_content' }] });
  });
});

describe('opl.format.txt: bytes that are not UTF-8', () => {
  it('refuses garbage made only of bytes 0x80–0xFF, and reads a windows-1252 list', async () => {
    let seed = 5;
    const garbage = Uint8Array.from({ length: 20_000 }, () => 0x80 + (((seed = (seed * 1103515245 + 12345) % 2 ** 31) >>> 16) & 0x7f));
    expect(await runParse(plugin, garbage, { filename: 'noise.txt' })).toMatchObject({ playlists: [], issues: [{ code: 'binary_content', severity: 'error' }] });
    // "Beyoncé – Déjà Vu", "Motörhead – Ace of Spades", "Sigur Rós – Hoppípolla" in windows-1252.
    const latin1 = Uint8Array.from([...'Beyonc\u00e9 - D\u00e9j\u00e0 Vu\nMot\u00f6rhead - \u201cAce\u201d\nSigur R\u00f3s - Hopp\u00edpolla \u20ac\n'].map((char) => ({ '\u201c': 0x93, '\u201d': 0x94, '\u20ac': 0x80 })[char] ?? char.charCodeAt(0)));
    const read = await runParse(plugin, latin1, { filename: 'latin1.txt' });
    expect(read.issues).toMatchObject([{ code: 'legacy_encoding', severity: 'warning' }]);
    expect(read.playlists[0]!.tracks.map((track) => track.artist)).toEqual(['Beyonc\u00e9', 'Mot\u00f6rhead', 'Sigur R\u00f3s']);
  });
});
