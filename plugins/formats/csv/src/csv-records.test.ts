import { formatKit } from '@opl/plugin-sdk';
import { describe, expect, it } from 'vitest';
import { detectDialect, MAX_CELLS, readRecords } from './csv-records.ts';

function read(text: string) {
  const issues = new formatKit.IssueCollector();
  const records = [...readRecords(text, detectDialect(text), issues)];
  return { records: records.map((record) => [record.line, ...record.cells]), issues: issues.issues() };
}

describe('readRecords (RFC 4180)', () => {
  it('reads quoted fields with delimiters, doubled quotes and line breaks inside', () => {
    const { records, issues } = read('a,b,c\r\n"x, y","say ""hi""","line 1\r\nline 2\nline 3"\r\nlast,,\r\n');
    expect(issues).toEqual([]);
    expect(records).toEqual([
      [1, 'a', 'b', 'c'],
      [2, 'x, y', 'say "hi"', 'line 1\r\nline 2\nline 3'],
      [5, 'last', '', ''],
    ]);
  });

  it('numbers records after quoted fields with and without line breaks inside, whatever the line ends', () => {
    const { records } = read('a,b\r"x\ry",""""""\r"one"\n"two\n\nlines",""\r\n"p""q",end');
    expect(records).toEqual([
      [1, 'a', 'b'],
      [2, 'x\ry', '""'],
      [4, 'one'],
      [5, 'two\n\nlines', ''],
      [8, 'p"q', 'end'],
    ]);
  });

  it('accepts LF, CRLF and lone CR line ends, skips blank lines, keeps a missing final line end', () => {
    expect(read('a,b\n1,2\r\n\r\n3,4\r5,6').records).toEqual([
      [1, 'a', 'b'],
      [2, '1', '2'],
      [4, '3', '4'],
      [5, '5', '6'],
    ]);
  });

  it('detects comma, semicolon and tab from the header line, ignoring delimiters inside quotes', () => {
    expect(detectDialect('a,b,c\n1;2;3;4;5').delimiter).toBe(',');
    expect(detectDialect('"Titel, lang";Künstler;Album\n').delimiter).toBe(';');
    expect(detectDialect('title\tartist\talbum\n').delimiter).toBe('\t');
    expect(detectDialect('\n\ntitle;artist\n').delimiter).toBe(';');
    expect(detectDialect('title\n').delimiter).toBe(',');
    expect(read('sep=;\r\ntitle;artist\r\n"A;1";B\r\n').records).toEqual([
      [2, 'title', 'artist'],
      [3, 'A;1', 'B'],
    ]);
  });

  it('keeps sloppy quotes with a warning: a quote inside an unquoted field, text after a closing quote', () => {
    const { records, issues } = read('a,b\n12" vinyl,"quoted" tail\n');
    expect(records).toEqual([
      [1, 'a', 'b'],
      [2, '12" vinyl', 'quoted tail'],
    ]);
    expect(issues).toMatchObject([{ line: 2, column: 2, code: 'malformed_quotes', severity: 'warning' }]);
  });

  it('skips only the line of a quote that never closes and reads on', () => {
    const { records, issues } = read('a,b\n1,2\n"broken,3\n4,5\n');
    expect(records).toEqual([
      [1, 'a', 'b'],
      [2, '1', '2'],
      [4, '4', '5'],
    ]);
    expect(issues).toMatchObject([{ line: 3, column: 1, code: 'unterminated_quote', severity: 'error' }]);
  });

  it('drops the line of a stray quote that a later quote would close, keeping the rows it would swallow', () => {
    const { records, issues } = read('title,artist\n"Broken,A\nGood1,B\nGood2,C\n"Good3",D');
    expect(records).toEqual([
      [1, 'title', 'artist'],
      [3, 'Good1', 'B'],
      [4, 'Good2', 'C'],
      [5, 'Good3', 'D'],
    ]);
    expect(issues).toMatchObject([{ line: 2, column: 1, code: 'unbalanced_quote', severity: 'error' }]);
    expect(issues[0]!.message).toContain('line 2 was skipped');
  });

  it('drops a stray quote whose closing would make too many cells, or swallow lines that are rows of their own', () => {
    // Closed cleanly, but the row gets 3 cells where the header names 2.
    const wide = read('title,artist\n"Broken,A\nGood1,B\nGood2",C,D\nGood3,E\n');
    expect(wide.records).toEqual([
      [1, 'title', 'artist'],
      [3, 'Good1', 'B'],
      [4, 'Good2"', 'C', 'D'],
      [5, 'Good3', 'E'],
    ]);
    // Line 4 is as ragged as the file: its row reader reports it (too_many_cells).
    expect(wide.issues).toMatchObject([{ line: 2, code: 'unbalanced_quote' }]);
    // Closed cleanly with too few cells, and `Good1,B` inside is a whole row.
    const short = read('title,artist\n"Broken,A\nGood1,B\nGood2,"\nGood3,E\n');
    // Line 4's own quote never closes: that line goes too, as any unterminated quote's does.
    expect(short.records.map((record) => record[0])).toEqual([1, 3, 5]);
    expect(short.issues).toMatchObject([
      { line: 2, code: 'unbalanced_quote' },
      { line: 4, code: 'unterminated_quote' },
    ]);
  });

  it('keeps legitimate quoted cells that span lines, also when a line inside holds delimiters', () => {
    const { records, issues } = read(
      'title,artist,album\n"Intro\nVerse one, verse two\nOutro",Artist,Album\n"first line\nsecond, with a comma",Solo\n"a\nb",""\n',
    );
    expect(issues.filter((issue) => issue.code === 'unbalanced_quote')).toEqual([]);
    expect(records).toEqual([
      [1, 'title', 'artist', 'album'],
      [2, 'Intro\nVerse one, verse two\nOutro', 'Artist', 'Album'],
      [5, 'first line\nsecond, with a comma', 'Solo'],
      [7, 'a\nb', ''],
    ]);
    // The v1 export's shape: 23 columns, a description over several lines.
    const v1 = read(`${'c,'.repeat(22)}c\n"p","line 1\nline 2, b\nline 3"${',x'.repeat(21)}\n`);
    expect(v1.issues).toEqual([]);
    expect(v1.records[1]).toHaveLength(24);
  });

  it('stays linear when many stray quotes need recovering', { timeout: 60_000 }, () => {
    const { records, issues } = read(`title,artist\n${'"a,b\nc,d\n'.repeat(20_000)}"x",y\n`);
    // Every `"a,b` line is dropped, every `c,d` kept.
    expect(records).toHaveLength(20_002);
    expect(issues.some((issue) => issue.code === 'unbalanced_quote')).toBe(true);
  });

  it('bounds the cells kept per record', () => {
    const [record] = [...readRecords(','.repeat(5_000), detectDialect(','), new formatKit.IssueCollector())];
    expect(record?.cells).toHaveLength(MAX_CELLS);
    expect(record?.overflow).toBe(true);
  });

  // A hang guard (the timeout), not a speed check (that is `npm run bench`): quadratic work on a
  // 5 MB line would take hours.
  it('refuses a 5 MB line without a line break as too long, naming its line and length', { timeout: 60_000 }, () => {
    const plain = read(`title\n${'x'.repeat(5_000_000)}\nnext`);
    expect(plain.records).toEqual([[1, 'title'], [3, 'next']]);
    expect(plain.issues).toMatchObject([{ line: 2, code: 'line_too_long', severity: 'error' }]);
    expect(plain.issues[0]!.message).toContain('5000000 characters');
    // The same with quotes and delimiters everywhere, and an unterminated quote at the start.
    const quoted = read(`title\n"${'a""b,'.repeat(1_000_000)}"`);
    expect(quoted.records).toEqual([[1, 'title']]);
    expect(quoted.issues).toMatchObject([{ line: 2, code: 'line_too_long' }]);
    const open = read(`"${'y,'.repeat(2_500_000)}`);
    expect(open.records).toEqual([]);
    expect(open.issues).toMatchObject([{ code: 'unterminated_quote' }]);
    // A header that long ends the reading: no later line can be read against it.
    const header = read(`${'h,'.repeat(1_000_000)}\n1,2\n`);
    expect(header.records).toEqual([]);
    expect(header.issues).toMatchObject([{ line: 1, code: 'line_too_long' }]);
  });
});
