import { describe, expect, it } from 'vitest';
import { libraryReleaseDate } from './release-date.ts';

describe('libraryReleaseDate', () => {
  it('keeps the UTC day before 10:00 UTC: midnight there is midnight only in UTC or a zone behind it', () => {
    expect(libraryReleaseDate('2016-04-29T00:00:00Z')).toEqual({ date: '2016-04-29', year: 2016 });
    expect(libraryReleaseDate('2016-04-29T08:00:00Z')).toEqual({ date: '2016-04-29', year: 2016 });
    expect(libraryReleaseDate('2016-04-29T09:59:59Z')).toEqual({ date: '2016-04-29', year: 2016 });
  });

  it('keeps what the UTC day and the next one share from 10:00 UTC on', () => {
    expect(libraryReleaseDate('2016-04-29T10:00:00Z')).toEqual({ date: '2016-04', year: 2016 });
    expect(libraryReleaseDate('2016-04-30T12:00:00Z')).toEqual({ date: '2016', year: 2016 });
    expect(libraryReleaseDate('2016-02-28T22:00:00Z')).toEqual({ date: '2016-02', year: 2016 });
    expect(libraryReleaseDate('2016-12-31T12:00:00Z')).toBeNull();
  });

  it('refuses what is no plist date', () => {
    for (const value of ['2016-04-29', '2016-02-30T07:00:00Z', '2016-04-29T24:00:00Z', '2016-04-29T07:00:00+02:00', 'soon']) expect(libraryReleaseDate(value)).toBeNull();
  });
});
