import { describe, expect, it } from 'vitest';
import { findLeaks } from '../../../support/secret-scan.ts';

describe('secret scan', () => {
  it('finds an issued token in a transcript and names it only by its first characters', () => {
    const token = 'BQ0123456789abcdefghijklmnop';
    const leaks = findLeaks([token, 'short'], [
      { file: 'clean.log', text: '{"msg":"ok"}' },
      { file: 'leaky.log', text: `{"authorization":"Bearer ${token}"}` },
    ]);
    expect(leaks).toEqual([{ file: 'leaky.log', secretPrefix: 'BQ0123…' }]);
  });

  it('ignores secrets too short to tell from ordinary text', () => {
    expect(findLeaks(['abc'], [{ file: 'a.log', text: 'abc abc' }])).toEqual([]);
  });
});
