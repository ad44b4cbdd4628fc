import { describe, expect, it } from 'vitest';
import { afterFromCursor, nextAfterCursor, nextOffsetCursor, offsetFromCursor, pageSize } from '../../../plugins/providers/spotify/src/paging.ts';
import { errorForResponse, safeDetail } from '../../../plugins/providers/spotify/src/response-errors.ts';
import { albumQuery, isrcQuery, searchLimit, textQuery } from '../../../plugins/providers/spotify/src/search-query.ts';
import { additionBlocks, chunks } from '../../../plugins/providers/spotify/src/write-batches.ts';

const NOW = Date.parse('2026-11-21T12:00:00Z');
const body = (status: number, message: string, extra: Record<string, unknown> = {}) => JSON.stringify({ error: { status, message, ...extra } });

describe('Spotify error answers', () => {
  const purpose = { what: 'reading the playlist', missing: 'playlist' };

  it('401 is AuthExpired', () => {
    const error = errorForResponse({ status: 401, headers: {}, bodyText: body(401, 'The access token expired') }, purpose, NOW);
    expect(error.type).toBe('AuthExpired');
    expect(error.message).toMatch(/reconnect/);
  });

  it('429 with reason QUOTA_EXCEEDED says the app quota is exhausted; a plain 429 is a rate limit', () => {
    const quota = errorForResponse({ status: 429, headers: { 'retry-after': '7200' }, bodyText: body(429, 'quota', { reason: 'QUOTA_EXCEEDED' }) }, purpose, NOW);
    expect(quota.toData()).toMatchObject({ type: 'RateLimited', retry_after_s: 7200 });
    expect(quota.message).toMatch(/quota is exhausted/);
    const pacing = errorForResponse({ status: 429, headers: { 'retry-after': '31' }, bodyText: body(429, 'API rate limit exceeded') }, purpose, NOW);
    expect(pacing.toData()).toMatchObject({ type: 'RateLimited', retry_after_s: 31 });
    expect(pacing.message).toMatch(/rate limit/);
    expect(pacing.message).not.toMatch(/quota/);
    const noHeader = errorForResponse({ status: 429, headers: {}, bodyText: 'not json' }, purpose, NOW);
    expect(noHeader.toData()).toMatchObject({ type: 'RateLimited', retry_after_s: null });
  });

  it('reads Retry-After as an HTTP date too (retryAfterSeconds of the SDK)', () => {
    const dated = errorForResponse({ status: 429, headers: { 'retry-after': 'Sat, 21 Nov 2026 12:01:00 GMT' }, bodyText: '' }, purpose, NOW);
    expect(dated.toData()).toMatchObject({ type: 'RateLimited', retry_after_s: 60 });
  });

  it('403 tells missing scopes, owner-only access and other refusals apart', () => {
    expect(errorForResponse({ status: 403, headers: {}, bodyText: body(403, 'Insufficient client scope') }, purpose, NOW).type).toBe('AuthExpired');
    const owner = errorForResponse({ status: 403, headers: {}, bodyText: body(403, 'Forbidden') }, { what: "reading the playlist's items", ownerOnly: true }, NOW);
    expect(owner.type).toBe('Unsupported');
    expect(owner.message).toMatch(/owns it or collaborates|owns or collaborates/);
    expect(errorForResponse({ status: 403, headers: {}, bodyText: body(403, 'Forbidden') }, purpose, NOW).type).toBe('Unsupported');
  });

  it('404 is NotFound, 400 InvalidInput with a sanitized detail, 5xx ProviderError', () => {
    expect(errorForResponse({ status: 404, headers: {}, bodyText: body(404, 'Resource not found') }, purpose, NOW).type).toBe('NotFound');
    const invalid = errorForResponse({ status: 400, headers: {}, bodyText: body(400, 'You can add a maximum of 100 tracks per request.') }, { what: 'adding tracks' }, NOW);
    expect(invalid.type).toBe('InvalidInput');
    expect(invalid.message).toContain('maximum of 100 tracks');
    for (const status of [500, 502, 503]) expect(errorForResponse({ status, headers: {}, bodyText: '<html>oops</html>' }, purpose, NOW).type).toBe('ProviderError');
    expect(errorForResponse({ status: 418, headers: {}, bodyText: '' }, purpose, NOW).type).toBe('ProviderError');
  });

  it('never repeats a raw or unusual body in a message', () => {
    expect(safeDetail('<script>alert(1)</script>')).toBeNull();
    expect(safeDetail('x'.repeat(200))).toBeNull();
    expect(safeDetail('Invalid track uri: spotify:track:abc')).toBe('Invalid track uri: spotify:track:abc');
    const error = errorForResponse({ status: 400, headers: {}, bodyText: body(400, 'token=BQsecret" {"a":1}') }, purpose, NOW);
    expect(error.message).not.toContain('BQsecret');
  });
});

describe('Spotify paging cursors', () => {
  it('offsets come and go as checked decimal strings', () => {
    expect(offsetFromCursor(null)).toBe(0);
    expect(offsetFromCursor('150')).toBe(150);
    expect(() => offsetFromCursor('https://api.spotify.com/v1/me/playlists?offset=2')).toThrow(/cursor/);
    expect(() => offsetFromCursor('-1')).toThrow();
  });

  it('continues while Spotify gives a next link, or the total says a cut page has more', () => {
    expect(nextOffsetCursor({ next: 'https://api.spotify.com/v1/x?offset=50', total: 120 }, 0, 50)).toBe('50');
    expect(nextOffsetCursor({ next: null, total: 120 }, 100, 20)).toBeNull();
    expect(nextOffsetCursor({ next: null, total: 120 }, 0, 50)).toBe('50');
    expect(nextOffsetCursor({ next: 'x', total: 0 }, 0, 0)).toBeNull();
    expect(nextOffsetCursor(null, 0, 3)).toBeNull();
  });

  it('followed artists page by the last id', () => {
    expect(afterFromCursor('0I2XqVXqHScXjHhk6AYYRe')).toBe('0I2XqVXqHScXjHhk6AYYRe');
    expect(() => afterFromCursor('../x')).toThrow();
    expect(nextAfterCursor({ next: 'https://api.spotify.com/v1/me/following?after=a', cursors: { after: 'a' } })).toBe('a');
    expect(nextAfterCursor({ next: null, cursors: { after: 'a' } })).toBeNull();
  });

  it('clamps page sizes to what the API allows', () => {
    expect(pageSize(100)).toBe(50);
    expect(pageSize(2)).toBe(2);
    expect(pageSize(100, 100)).toBe(100);
  });
});

describe('Spotify search queries', () => {
  it('builds isrc: queries only from well-formed ISRCs', () => {
    expect(isrcQuery('gb-abc-11-00001')).toBe('isrc:GBABC1100001');
    expect(isrcQuery('not an isrc')).toBeNull();
  });

  it('quotes field filters and strips quotes from values', () => {
    expect(textQuery({ text: null, title: 'Golden "Hour"', artist: 'Glass Orchard', album: null })).toBe('track:"Golden Hour" artist:"Glass Orchard"');
    expect(textQuery({ text: 'free words', title: null, artist: null, album: null })).toBe('free words');
    expect(textQuery({ text: '  ', title: '', artist: null, album: null })).toBeNull();
  });

  it('prefers UPC for albums', () => {
    expect(albumQuery({ title: 'Tidelines', artist: null, upc: '1920-0000-0012' })).toBe('upc:192000000012');
    expect(albumQuery({ title: 'Tidelines', artist: 'Glass Orchard', upc: null })).toBe('album:"Tidelines" artist:"Glass Orchard"');
  });

  it('never asks for more than 10 results', () => {
    expect(searchLimit(50)).toBe(10);
    expect(searchLimit(5)).toBe(5);
  });
});

describe('Spotify addition blocks', () => {
  const input = (index: number, position: number | null) => ({ index, uri: `spotify:track:${index}`, position });

  it('groups appends, and positions that continue each other, into blocks of at most 100', () => {
    const appends = Array.from({ length: 230 }, (_, index) => input(index, null));
    expect(additionBlocks(appends).map((block) => [block.position, block.items.length])).toEqual([
      [null, 100],
      [null, 100],
      [null, 30],
    ]);
    const mixed = [input(0, 3), input(1, 4), input(2, 5), input(3, 0), input(4, null), input(5, null), input(6, 9)];
    expect(additionBlocks(mixed).map((block) => [block.position, block.items.map((item) => item.index)])).toEqual([
      [3, [0, 1, 2]],
      [0, [3]],
      [null, [4, 5]],
      [9, [6]],
    ]);
    const positioned = Array.from({ length: 150 }, (_, index) => input(index, 10 + index));
    expect(additionBlocks(positioned).map((block) => [block.position, block.items.length])).toEqual([
      [10, 100],
      [110, 50],
    ]);
  });

  it('chunks keep order', () => {
    expect(chunks([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(chunks([], 2)).toEqual([]);
  });
});
