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

  it('bounds the cells kept per record', () => {
    const [record] = [...readRecords(','.repeat(5_000), detectDialect(','), new formatKit.IssueCollector())];
    expect(record?.cells).toHaveLength(MAX_CELLS);
    expect(record?.overflow).toBe(true);
  });

  // A hang guard (the timeout), not a speed check (that is `npm run bench`): quadratic work on a
  // 5 MB line would take hours.
  it('reads a 5 MB line without a line break', { timeout: 60_000 }, () => {
    expect(read('x'.repeat(5_000_000)).records[0]?.[1]).toHaveLength(5_000_000);
    // The same with quotes and delimiters everywhere, and an unterminated quote at the start.
    const quoted = read(`"${'a""b,'.repeat(1_000_000)}"`);
    expect(quoted.records[0]?.[1]).toHaveLength(4_000_000);
    const open = read(`"${'y,'.repeat(2_500_000)}`);
    expect(open.records).toEqual([]);
    expect(open.issues).toMatchObject([{ code: 'unterminated_quote' }]);
  });
});
