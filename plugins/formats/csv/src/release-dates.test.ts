import { describe, expect, it } from 'vitest';
import { releaseDateOf } from './release-dates.ts';

describe('releaseDateOf', () => {
  it('keeps the ISO forms the model holds', () => {
    expect(releaseDateOf('1997')).toEqual({ date: '1997', year: 1997, ambiguous: false });
    expect(releaseDateOf('1997-05')).toEqual({ date: '1997-05', year: 1997, ambiguous: false });
    expect(releaseDateOf('1997-05-21')).toEqual({ date: '1997-05-21', year: 1997, ambiguous: false });
  });

  it('reads dotted dates day first', () => {
    expect(releaseDateOf('1.2.1997')?.date).toBe('1997-02-01');
    expect(releaseDateOf('30.02.1997')).toBeNull();
  });

  it('reads a slashed date whose day is above 12, whichever side it is on', () => {
    expect(releaseDateOf('21/05/1997')).toEqual({ date: '1997-05-21', year: 1997, ambiguous: false });
    expect(releaseDateOf('5/21/1997')).toEqual({ date: '1997-05-21', year: 1997, ambiguous: false });
    expect(releaseDateOf('29/2/2000')?.date).toBe('2000-02-29');
  });

  it('keeps only the year when day and month cannot be told apart, the whole date when they are equal', () => {
    expect(releaseDateOf('03/12/2001')).toEqual({ date: '2001', year: 2001, ambiguous: true });
    expect(releaseDateOf('05/05/2001')).toEqual({ date: '2001-05-05', year: 2001, ambiguous: false });
  });

  it('refuses slashes that make no date', () => {
    for (const cell of ['13/13/2001', '31/04/1997', '29/2/1999', '0/5/2001', '5/0/2001', '21/05/97', '21/05/1997/1']) expect(releaseDateOf(cell)).toBeNull();
  });
});
