import { describe, expect, it } from 'vitest';
import { requestUrl } from '../../../plugins/providers/deezer/src/deezer-client.ts';
import { DuplicateTrack, errorFromBody, errorFromStatus, QUOTA_RETRY_AFTER_S, readErrorBody } from '../../../plugins/providers/deezer/src/deezer-errors.ts';
import { idFor, parseDeezerRef } from '../../../plugins/providers/deezer/src/deezer-uri.ts';
import { indexFromCursor, nextCursor, pageSize } from '../../../plugins/providers/deezer/src/paging.ts';
import { albumQuery, normalizeIsrc, searchLimit, trackQuery } from '../../../plugins/providers/deezer/src/search-query.ts';
import { chunks, mirrorPlan, planAdditions } from '../../../plugins/providers/deezer/src/write-plan.ts';

/** The plugin's pure parts: error bodies, URIs, paging, queries and write plans. */

const purpose = { what: 'reading the playlist', missing: 'playlist' };

describe('200-with-error bodies', () => {
  it('recognises an error body and only an error body', () => {
    expect(readErrorBody({ error: { type: 'DataException', message: 'no data', code: 800 } })).toEqual({ type: 'DataException', message: 'no data', code: 800 });
    expect(readErrorBody({ error: { type: 'Exception', code: '4' } })).toMatchObject({ code: 4 });
    expect(readErrorBody(true)).toBeNull();
    expect(readErrorBody({ data: [], total: 0 })).toBeNull();
  });

  it('maps each Deezer code to its typed error', () => {
    const type = (code: number, message = 'x', extra = {}) => errorFromBody({ type: 'T', message, code }, { ...purpose, ...extra }).type;
    expect(type(4)).toBe('RateLimited');
    expect(type(300)).toBe('AuthExpired');
    expect(type(200)).toBe('AuthExpired');
    expect(type(200, 'Permission denied', { ownerOnly: true })).toBe('Unsupported');
    expect(type(800)).toBe('NotFound');
    expect(type(700)).toBe('ProviderError');
    expect(type(100)).toBe('InvalidInput');
    expect(type(500)).toBe('InvalidInput');
    expect(type(501)).toBe('InvalidInput');
    expect(type(600)).toBe('InvalidInput');
    expect(type(901)).toBe('Unsupported');
    expect(type(12345)).toBe('ProviderError');
    expect(errorFromBody({ type: 'Exception', message: 'Quota limit exceeded', code: 4 }, purpose).toData()).toMatchObject({ retry_after_s: QUOTA_RETRY_AFTER_S });
    expect(errorFromBody({ type: 'ParameterException', message: 'This song already exists in this playlist', code: 500 }, purpose)).toBeInstanceOf(DuplicateTrack);
  });

  it('keeps odd or long provider messages out of ours', () => {
    const error = errorFromBody({ type: 'X', message: '<script>secret=abc</script>', code: 999 }, purpose);
    expect(error.message).not.toContain('script');
    expect(errorFromBody({ type: 'X', message: 'Wrong parameter', code: 500 }, purpose).message).toContain('Wrong parameter');
  });

  it('maps gateway statuses', () => {
    expect(errorFromStatus(503, undefined, purpose).type).toBe('ProviderError');
    expect(errorFromStatus(429, '7', purpose).toData()).toMatchObject({ type: 'RateLimited', retry_after_s: 7 });
    expect(errorFromStatus(404, undefined, purpose).type).toBe('ProviderError');
  });
});

describe('URIs and links', () => {
  it('parses deezer: URIs and deezer.com links with a language segment', () => {
    expect(parseDeezerRef('https://www.deezer.com/fr/track/3135556')).toEqual({ entity: 'track', id: '3135556', uri: 'deezer:track:3135556' });
    expect(parseDeezerRef('http://deezer.com/en-gb/playlist/1?utm=1#x')).toMatchObject({ entity: 'playlist', id: '1' });
    expect(parseDeezerRef('deezer:artist:27')).toMatchObject({ entity: 'artist', id: '27' });
    for (const bad of ['deezer:track:0', 'deezer:show:1', 'https://evil.test/track/1', 'https://user@www.deezer.com/track/1', 'https://www.deezer.com:8443/track/1', 'https://www.deezer.com/en/track/1/extra', 'ftp://www.deezer.com/track/1']) {
      expect(parseDeezerRef(bad), bad).toBeNull();
    }
    expect(idFor('playlist', ' 42 ')).toBe('42');
    expect(idFor('playlist', 'deezer:track:42')).toBeNull();
  });

  it('builds request URLs with every value encoded', () => {
    expect(requestUrl('/user/me/playlists', { title: 'Rock & Roll = fun', public: false })).toBe('https://api.deezer.com/user/me/playlists?title=Rock%20%26%20Roll%20%3D%20fun&public=false');
    expect(requestUrl('/user/me')).toBe('https://api.deezer.com/user/me');
  });
});

describe('paging and queries', () => {
  it('pages by index', () => {
    expect(indexFromCursor(null)).toBe(0);
    expect(indexFromCursor('50')).toBe(50);
    expect(() => indexFromCursor('abc')).toThrow(/cursor/);
    expect(pageSize(500)).toBe(100);
    expect(pageSize(0)).toBe(1);
    expect(nextCursor({ data: [], total: 3, next: 'https://api.deezer.com/x?index=2' }, 0, 2)).toBe('2');
    expect(nextCursor({ total: 3 }, 0, 2)).toBe('2');
    expect(nextCursor({ total: 2 }, 0, 2)).toBeNull();
    expect(nextCursor({ total: 9, next: 'x' }, 0, 0)).toBeNull();
  });

  it('builds advanced queries and normalizes ISRCs', () => {
    expect(trackQuery({ title: 'One "More" Time', artist: 'Daft Punk', album: null, text: 'ignored' })).toBe('artist:"Daft Punk" track:"One More Time"');
    expect(trackQuery({ title: null, artist: null, album: null, text: '  free  text ' })).toBe('free text');
    expect(trackQuery({ title: '""', artist: null, album: null, text: null })).toBeNull();
    expect(albumQuery({ title: 'Discovery', artist: null })).toBe('album:"Discovery"');
    expect(normalizeIsrc('gb-duw-00-00059')).toBe('GBDUW0000059');
    expect(normalizeIsrc('nope')).toBeNull();
    expect(searchLimit(100)).toBe(25);
  });
});

describe('write plans', () => {
  it('appends new tracks, refuses ones already there or repeated, and needs no reorder for plain appends', () => {
    const plan = planAdditions(['1', '2'], [
      { index: 0, trackId: '3', position: null },
      { index: 1, trackId: '2', position: null },
      { index: 2, trackId: '3', position: null },
      { index: 3, trackId: '4', position: 9 },
    ]);
    expect(plan.append.map((item) => item.trackId)).toEqual(['3', '4']);
    expect(plan.duplicates).toEqual([1, 2]);
    expect(plan.order).toBeNull();
    expect([...plan.positions]).toEqual([
      [0, 2],
      [3, 3],
    ]);
  });

  it('computes the complete order for positioned inserts', () => {
    const plan = planAdditions(['a', 'b', 'c'], [
      { index: 0, trackId: 'x', position: 1 },
      { index: 1, trackId: 'y', position: 2 },
      { index: 2, trackId: 'z', position: 0 },
    ]);
    expect(plan.order).toEqual(['z', 'a', 'x', 'y', 'b', 'c']);
    expect(plan.positions.get(0)).toBe(2);
    expect(plan.appendedAt.get(0)).toBe(3);
  });

  it('plans a mirror as remove, append and order', () => {
    expect(mirrorPlan(['1', '2', '3'], ['3', '4', '1'])).toEqual({ remove: ['2'], append: ['4'], order: ['3', '4', '1'] });
    expect(mirrorPlan(['1', '2'], ['1', '2', '3'])).toEqual({ remove: [], append: ['3'], order: null });
    expect(chunks([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
  });
});
