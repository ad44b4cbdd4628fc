import { describe, expect, it } from 'vitest';
import { terminalLines, terminalText } from '../../../../core/cli/terminal-text.ts';

describe('terminalText', () => {
  it('escapes what a terminal would act on: C0 and C1 controls, DEL, line separators, bidi controls', () => {
    expect(terminalText('a\u001b[31mb')).toBe('a\\u001b[31mb');
    expect(terminalText('one\ntwo\r\tthree')).toBe('one\\u000atwo\\u000d\\u0009three');
    expect(terminalText('\u0007\u007f\u009b2J')).toBe('\\u0007\\u007f\\u009b2J');
    expect(terminalText('x\u2028y\u202ez\u2066')).toBe('x\\u2028y\\u202ez\\u2066');
  });

  it('leaves printable text, Unicode and emoji as they are', () => {
    const text = 'Sigur Rós – Hoppípolla 東京の夜 😀 "quoted" \\u001b (already escaped)';
    expect(terminalText(text)).toBe(text);
  });
});

describe('terminalLines', () => {
  it('keeps line breaks and escapes everything terminalText escapes', () => {
    expect(terminalLines('Plan: "Mix\u001b[2J" (3 of 5 songs)\n  ! a\rb\tc\u202e\n')).toBe('Plan: "Mix\\u001b[2J" (3 of 5 songs)\n  ! a\\u000db\\u0009c\\u202e\n');
  });
});
