import { runParse, runSerialize } from '@opl/plugin-sdk/testing';
import { describe, expect, it } from 'vitest';
import plugin from './index.ts';

const encoder = new TextEncoder();
const parse = (text: string) => runParse(plugin, encoder.encode(text), { filename: 'list.csv', mediaType: 'text/csv' });
const FIFTY_MB = 50 * 1024 * 1024;

describe('opl.format.csv: malformed and hostile rows cost only themselves', () => {
  it('reads the rows a stray quote would swallow, and names the broken line', async () => {
    const { playlists, issues } = await parse('title,artist\n"Broken,A\nGood1,B\nGood2,C\n"Good3",D');
    expect(playlists[0]!.tracks.map((track) => [track.title, track.artist])).toEqual([
      ['Good1', 'B'],
      ['Good2', 'C'],
      ['Good3', 'D'],
    ]);
    expect(issues).toMatchObject([{ line: 2, code: 'unbalanced_quote', severity: 'error' }]);
  });

  it('reads back its own export whatever control characters the values hold', async () => {
    const titles = ['\u0001'.repeat(40), 'a\u0000b', '\u001b[31m red \u0007', '\u0000'.repeat(300)];
    const { text } = await runSerialize(plugin, [{ name: 'P\u0002', tracks: titles.map((title) => ({ title, artist: 'A\u0003' })) }]);
    const { playlists, issues } = await parse(text);
    expect(issues).toEqual([]);
    expect(playlists[0]).toMatchObject({ name: 'P\u0002' });
    expect(playlists[0]!.tracks.map((track) => [track.title, track.artist])).toEqual(titles.map((title) => [title, 'A\u0003']));
    // The same controls in a file that is not our export are still binary.
    const other = await parse(`title,artist\n${'\u0001'.repeat(40)},A\n`);
    expect(other).toMatchObject({ playlists: [], issues: [{ code: 'binary_content' }] });
  });

  it('keeps a quoted cell over several lines as one value', async () => {
    const { playlists, issues } = await parse('title,artist,album\n"Intro\nVerse, one\nOutro",Band,LP\nNext,Band,LP\n');
    expect(issues).toEqual([]);
    expect(playlists[0]!.tracks.map((track) => track.title)).toEqual(['Intro\nVerse, one\nOutro', 'Next']);
  });

  it('skips a 50 MB row with an error naming its line and length, and keeps its neighbours', { timeout: 120_000 }, async () => {
    const { playlists, issues } = await parse(`title,artist\nBefore,A\n${'x'.repeat(FIFTY_MB)}\nAfter,B\n`);
    expect(playlists[0]!.tracks.map((track) => track.title)).toEqual(['Before', 'After']);
    expect(issues).toMatchObject([{ line: 3, code: 'line_too_long', severity: 'error' }]);
    expect(issues[0]!.message).toContain(`${FIFTY_MB} characters`);
  });

  it('refuses a file that is one 50 MB line, or a header and one 50 MB row', { timeout: 120_000 }, async () => {
    const single = await parse('A'.repeat(FIFTY_MB));
    expect(single.playlists).toEqual([]);
    expect(single.issues).toMatchObject([{ line: 1, code: 'line_too_long', severity: 'error' }]);
    expect(single.issues[0]!.message).toContain('nothing was imported');

    const row = await parse(`title,artist\n${'A,'.repeat(FIFTY_MB / 2)}\n`);
    expect(row.playlists).toEqual([]);
    expect(row.issues.filter((issue) => issue.severity === 'error')).toMatchObject([
      { line: 2, code: 'line_too_long' },
      { line: null, code: 'nothing_readable' },
    ]);
  });
});
