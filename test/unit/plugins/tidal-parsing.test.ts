import { describe, expect, it } from 'vitest';
import { AuthExpired, InvalidInput, NotFound, ProviderError, RateLimited, Unsupported } from '@opl/plugin-sdk';
import { chunk, planInserts } from '../../../plugins/providers/tidal/src/batch-plan.ts';
import { idempotencyKey } from '../../../plugins/providers/tidal/src/idempotency-key.ts';
import { isoDurationSeconds } from '../../../plugins/providers/tidal/src/iso-duration.ts';
import { collectPage, decodePageCursor, encodePageCursor, FIRST_PAGE } from '../../../plugins/providers/tidal/src/page-cursor.ts';
import { errorForResponse, jsonApiErrorCode } from '../../../plugins/providers/tidal/src/tidal-errors.ts';
import { parseTidalUri, tidalUri } from '../../../plugins/providers/tidal/src/tidal-uris.ts';
import { searchText, validateUri } from '../../../plugins/providers/tidal/src/search.operations.ts';

describe('isoDurationSeconds', () => {
  it.each([
    ['PT3M25S', 205],
    ['PT2M58S', 178],
    ['PT45S', 45],
    ['PT1H2M3S', 3723],
    ['PT1H', 3600],
    ['PT3M25.5S', 205.5],
    ['P1DT1S', 86_401],
    ['PT0S', 0],
  ])('%s is %d s', (text, seconds) => {
    expect(isoDurationSeconds(text)).toBe(seconds);
  });

  it.each(['', 'P', 'PT', '3:25', 'PT3X', 'P1Y', 'P1W', '-PT3S', 'PT3M25S junk'])('refuses %j', (text) => {
    expect(isoDurationSeconds(text)).toBeNull();
  });

  it('refuses non-strings', () => {
    expect(isoDurationSeconds(205)).toBeNull();
    expect(isoDurationSeconds(null)).toBeNull();
  });
});

describe('TIDAL URIs', () => {
  it.each([
    ['tidal:track:75413016', { entity: 'track', id: '75413016' }],
    ['tidal://track/75413016', { entity: 'track', id: '75413016' }],
    ['https://tidal.com/browse/track/75413016', { entity: 'track', id: '75413016' }],
    ['https://tidal.com/track/75413016/u', { entity: 'track', id: '75413016' }],
    ['https://listen.tidal.com/album/251380836/track/75413016', { entity: 'track', id: '75413016' }],
    ['https://tidal.com/browse/album/251380836?play=true', { entity: 'album', id: '251380836' }],
    ['https://tidal.com/browse/artist/1566', { entity: 'artist', id: '1566' }],
    ['https://tidal.com/browse/video/12345', { entity: 'video', id: '12345' }],
    ['https://listen.tidal.com/playlist/550E8400-E29B-41D4-A716-446655440000', { entity: 'playlist', id: '550e8400-e29b-41d4-a716-446655440000' }],
    ['  tidal:playlist:550e8400-e29b-41d4-a716-446655440000  ', { entity: 'playlist', id: '550e8400-e29b-41d4-a716-446655440000' }],
  ])('parses %s', (uri, expected) => {
    expect(parseTidalUri(uri)).toEqual(expected);
  });

  it.each([
    'spotify:track:4uLU6hMCjMI75M1A2tKUQC',
    'tidal:track:abc',
    'tidal:playlist:123',
    'tidal:mix:123',
    'https://example.com/browse/track/1',
    'https://tidal.com.evil.example/browse/track/1',
    'https://tidal.com/browse/',
    'ftp://tidal.com/browse/track/1',
    '',
  ])('refuses %j', (uri) => {
    expect(parseTidalUri(uri)).toBeNull();
  });

  it('normalises through validateUri; a video is valid but no migratable entity', () => {
    expect(validateUri({ uri: 'https://tidal.com/browse/track/77' })).toEqual({ valid: true, entity: 'track', id: '77', normalized_uri: 'tidal:track:77' });
    expect(validateUri({ uri: 'tidal:video:9' })).toEqual({ valid: true, entity: null, id: '9', normalized_uri: 'tidal:video:9' });
    expect(validateUri({ uri: 'https://open.spotify.com/track/x' })).toEqual({ valid: false, entity: null, id: null, normalized_uri: null });
    expect(tidalUri('album', '5')).toBe('tidal:album:5');
  });
});

describe('page cursors', () => {
  it('round-trips and refuses foreign cursors', () => {
    const cursor = { provider: 'eyJvIjoyMH0', skip: 3, base: 40 };
    expect(decodePageCursor(encodePageCursor(cursor))).toEqual(cursor);
    expect(decodePageCursor(encodePageCursor({ provider: null, skip: 0, base: 0 }))).toEqual(FIRST_PAGE);
    expect(decodePageCursor(null)).toEqual(FIRST_PAGE);
    expect(decodePageCursor('spotify-offset-20')).toBeNull();
  });

  /** A provider of `total` numbers in pages of `size`, recording which pages were read. */
  function provider(total: number, size: number) {
    const reads: (string | null)[] = [];
    const fetchPage = async (cursor: string | null) => {
      reads.push(cursor);
      const start = cursor === null ? 0 : Number(cursor);
      const items = Array.from({ length: Math.max(0, Math.min(size, total - start)) }, (_, index) => start + index);
      return { items, next: start + size < total ? String(start + size) : null };
    };
    return { reads, fetchPage };
  }

  async function drain(total: number, size: number, limit: number) {
    const { reads, fetchPage } = provider(total, size);
    const seen: { value: number; index: number }[] = [];
    let cursor = FIRST_PAGE;
    for (let calls = 0; calls < 200; calls++) {
      const page = await collectPage(cursor, limit, fetchPage, (value, index) => ({ value, index }));
      expect(page.items.length).toBeLessThanOrEqual(limit);
      seen.push(...page.items);
      if (page.next_cursor === null) return { seen, reads };
      cursor = decodePageCursor(page.next_cursor)!;
    }
    throw new Error('never ended');
  }

  it.each([
    [45, 20, 2],
    [45, 20, 20],
    [45, 20, 50],
    [40, 20, 20],
    [0, 20, 5],
    [7, 3, 4],
  ])('%d items in provider pages of %d, engine pages of %d: each once, in order, with absolute positions', async (total, size, limit) => {
    const { seen } = await drain(total, size, limit);
    expect(seen.map((entry) => entry.value)).toEqual(Array.from({ length: total }, (_, index) => index));
    expect(seen.map((entry) => entry.index)).toEqual(seen.map((entry) => entry.value));
  });

  it('fills a large engine page from several provider pages in one call', async () => {
    const { fetchPage, reads } = provider(45, 20);
    const page = await collectPage(FIRST_PAGE, 100, fetchPage, (value) => value);
    expect(page.items).toHaveLength(45);
    expect(page.next_cursor).toBeNull();
    expect(reads).toEqual([null, '20', '40']);
  });
});

describe('batch planning', () => {
  const items = (positions: (number | null)[]) => positions.map((position, index) => ({ index, value: position }));

  it('appends in chunks of the batch size', () => {
    const batches = planInserts(items(Array.from({ length: 120 }, () => null)), (value) => value, 50);
    expect(batches.map((batch) => [batch.items.length, batch.position])).toEqual([
      [50, null],
      [50, null],
      [20, null],
    ]);
  });

  it('keeps consecutive positions together and splits at gaps, at appends and at the limit', () => {
    const batches = planInserts(items([2, 3, 4, 9, 10, null, null, 0]), (value) => value, 2);
    expect(batches.map((batch) => ({ position: batch.position, indexes: batch.items.map((item) => item.index) }))).toEqual([
      { position: 2, indexes: [0, 1] },
      { position: 4, indexes: [2] },
      { position: 9, indexes: [3, 4] },
      { position: null, indexes: [5, 6] },
      { position: 0, indexes: [7] },
    ]);
  });

  it('chunks', () => {
    expect(chunk([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(chunk([], 2)).toEqual([]);
  });
});

describe('idempotency keys', () => {
  it('are stable for the same write, differ for another, and fit the header limit', () => {
    const key = idempotencyKey(['addTracks', 'p1', [['tidal:track:1', null]], 0]);
    expect(key).toBe(idempotencyKey(['addTracks', 'p1', [['tidal:track:1', null]], 0]));
    expect(key).toMatch(/^opl-[0-9a-f]{28}$/);
    const others = [
      idempotencyKey(['addTracks', 'p1', [['tidal:track:1', null]], 1]),
      idempotencyKey(['addTracks', 'p2', [['tidal:track:1', null]], 0]),
      idempotencyKey(['addTracks', 'p1', [['tidal:track:1', 0]], 0]),
      idempotencyKey(['addTracks', 'p1', [['tidal:track:2', null]], 0]),
    ];
    expect(new Set([key, ...others]).size).toBe(5);
  });

  it('spreads a thousand similar writes without collisions', () => {
    const keys = new Set(Array.from({ length: 1000 }, (_, index) => idempotencyKey(['removeTracks', 'p', [`item-${index}`]])));
    expect(keys.size).toBe(1000);
  });
});

describe('error answers', () => {
  const now = '2026-11-21T12:00:00.000Z';
  const body = (code?: string, detail = 'secret detail from the provider tidal-at-XYZ') => ({ errors: [{ id: 'e1', status: '0', ...(code ? { code } : {}), detail }] });

  it.each([
    [401, AuthExpired],
    [403, Unsupported],
    [404, NotFound],
    [429, RateLimited],
    [400, InvalidInput],
    [415, InvalidInput],
    [422, InvalidInput],
    [409, ProviderError],
    [500, ProviderError],
    [503, ProviderError],
    [418, ProviderError],
  ])('%d becomes %s, without the body', (status, type) => {
    const error = errorForResponse({ status, headers: {}, body: body('SOME_CODE') }, 'reading playlist entries', now);
    expect(error).toBeInstanceOf(type);
    expect(error.message).toContain(`HTTP ${status} SOME_CODE`);
    expect(error.message).toContain('reading playlist entries');
    expect(error.message).not.toContain('secret detail');
    expect(error.message).not.toContain('tidal-at-');
  });

  it('carries Retry-After in seconds or as a date', () => {
    const limited = errorForResponse({ status: 429, headers: { 'retry-after': '17' }, body: null }, 'x', now) as RateLimited;
    expect(limited.retryAfterSeconds).toBe(17);
    const dated = errorForResponse({ status: 429, headers: { 'retry-after': 'Sat, 21 Nov 2026 12:01:00 GMT' }, body: null }, 'x', now) as RateLimited;
    expect(dated.retryAfterSeconds).toBe(60);
    expect((errorForResponse({ status: 429, headers: {}, body: null }, 'x', now) as RateLimited).retryAfterSeconds).toBeNull();
  });

  it('takes only identifier-like codes from error objects', () => {
    expect(jsonApiErrorCode(body('IDEMPOTENT_REQUEST_PAYLOAD_MISMATCH'))).toBe('IDEMPOTENT_REQUEST_PAYLOAD_MISMATCH');
    expect(jsonApiErrorCode(body('Bearer tidal-at-123'))).toBeNull();
    expect(jsonApiErrorCode(body())).toBeNull();
    expect(jsonApiErrorCode('<html>')).toBeNull();
    expect(jsonApiErrorCode(null)).toBeNull();
  });
});

describe('search text', () => {
  it('joins the structured fields and bounds the length', () => {
    expect(searchText(['  Paper  Lanterns ', null, 'Golden   Hour'])).toBe('Paper Lanterns Golden Hour');
    expect(searchText(['x'.repeat(300)])).toHaveLength(256);
    expect(searchText([null, undefined, ' '])).toBe('');
  });
});
