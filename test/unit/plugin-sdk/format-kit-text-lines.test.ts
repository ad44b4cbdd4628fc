import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { firstLineIs, textLines } from '../../../plugin-sdk/src/format-kit/text-lines.ts';

const lines = (text: string) => [...textLines(text)].map((line) => [line.number, line.text]);

describe('formatKit.textLines', () => {
  it('splits on LF, CRLF and a lone CR, numbering lines from 1', () => {
    expect(lines('a\nb\r\nc\rd')).toEqual([[1, 'a'], [2, 'b'], [3, 'c'], [4, 'd']]);
    expect(lines('a\r\rb')).toEqual([[1, 'a'], [2, ''], [3, 'b']]);
    expect(lines('a\n\r\nb')).toEqual([[1, 'a'], [2, ''], [3, 'b']]);
    expect(lines('\n\nx')).toEqual([[1, ''], [2, ''], [3, 'x']]);
  });

  it('opens no empty line after a final line end, and gives no line for empty text', () => {
    expect(lines('a\n')).toEqual([[1, 'a']]);
    expect(lines('a\r\n')).toEqual([[1, 'a']]);
    expect(lines('a\r')).toEqual([[1, 'a']]);
    expect(lines('\n')).toEqual([[1, '']]);
    expect(lines('')).toEqual([]);
  });

  it('agrees with splitting the whole text, for any mix of line ends', () => {
    const text = fc.array(fc.oneof(fc.constantFrom('\n', '\r', '\r\n', 'é', ' '), fc.string({ maxLength: 5 })), { maxLength: 30 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, (value) => {
        const parts = value === '' ? [] : value.split(/\r\n|\n|\r/);
        if (parts.length > 0 && parts.at(-1) === '') parts.pop();
        expect([...textLines(value)].map((line) => line.text)).toEqual(parts);
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('firstLineIs', () => {
  it('is true only when the whole first line is the given text, whatever ends it', () => {
    for (const text of ['# v1', '# v1\n', '# v1\r\n', '# v1\rx']) expect(firstLineIs(text, '# v1'), JSON.stringify(text)).toBe(true);
    for (const text of ['# v1x', '# v1 \n', ' # v1', '', '# v']) expect(firstLineIs(text, '# v1'), JSON.stringify(text)).toBe(false);
  });
});
