import { describe, expect, it } from 'vitest';
import { anyPending, matchAppended, type SentItem } from '../../../plugins/providers/applemusic/src/append-confirmation.ts';
import { readPage } from '../../../plugins/providers/applemusic/src/apple-client.ts';
import { appleErrorCode, errorForResponse } from '../../../plugins/providers/applemusic/src/apple-errors.ts';
import { appleUri, parseAppleUri, trackResourceType } from '../../../plugins/providers/applemusic/src/apple-uris.ts';
import { collectOffsetPage, decodeOffset, encodeOffset } from '../../../plugins/providers/applemusic/src/offset-paging.ts';
import { normaliseIsrc, searchTerm } from '../../../plugins/providers/applemusic/src/search.operations.ts';

const NOW = '2026-11-21T12:00:00.000Z';

describe('URIs and links', () => {
  it('parses canonical URIs and refuses malformed ids', () => {
    expect(parseAppleUri('applemusic:song:1440857781')).toEqual({ kind: 'song', id: '1440857781' });
    expect(parseAppleUri('applemusic:library-song:i.PkdZbQXsPJ4DX')).toEqual({ kind: 'library-song', id: 'i.PkdZbQXsPJ4DX' });
    expect(parseAppleUri('applemusic:library-playlist:p.JL6884DCbMXbx2')).toEqual({ kind: 'library-playlist', id: 'p.JL6884DCbMXbx2' });
    expect(parseAppleUri('applemusic:song:abc')).toBeNull();
    expect(parseAppleUri('applemusic:podcast:1')).toBeNull();
    expect(parseAppleUri('spotify:track:4uLU6hMCjMI75M1A2tKUQC')).toBeNull();
  });

  it('reads the links people paste', () => {
    expect(parseAppleUri('https://music.apple.com/us/album/afterglow/1440857000?i=1440857781')).toEqual({ kind: 'song', id: '1440857781' });
    expect(parseAppleUri('https://music.apple.com/gb/album/afterglow/1440857000')).toEqual({ kind: 'album', id: '1440857000' });
    expect(parseAppleUri('https://music.apple.com/jp/song/golden-hour/1440857781')).toEqual({ kind: 'song', id: '1440857781' });
    expect(parseAppleUri('https://music.apple.com/us/artist/mira-solberg/id998877')).toEqual({ kind: 'artist', id: '998877' });
    expect(parseAppleUri('https://music.apple.com/us/playlist/road-trip/pl.u-AbC123')).toEqual({ kind: 'playlist', id: 'pl.u-AbC123' });
    expect(parseAppleUri('https://music.apple.com/library/playlist/p.JL6884DCbMXbx2')).toEqual({ kind: 'library-playlist', id: 'p.JL6884DCbMXbx2' });
    expect(parseAppleUri('https://music.apple.com.evil.example/us/song/x/1')).toBeNull();
    expect(parseAppleUri('http://music.apple.com/us/song/x/1')).toBeNull();
  });

  it('names the resource type an append sends', () => {
    expect(trackResourceType('song')).toBe('songs');
    expect(trackResourceType('music-video')).toBe('music-videos');
    expect(trackResourceType('library-song')).toBe('library-songs');
    expect(trackResourceType('album')).toBeNull();
    expect(appleUri('song', '1')).toBe('applemusic:song:1');
  });
});

describe('append confirmation', () => {
  const sent = (keys: string[], request: number): SentItem[] => keys.map((key) => ({ keys: [key], request }));

  it('confirms what landed in order after the old end', () => {
    const verdicts = matchAppended([...sent(['song:1', 'song:2'], 0), ...sent(['song:1'], 1)], [['song:1'], ['song:2'], ['song:1']], 10);
    expect(verdicts).toEqual([
      { state: 'confirmed', position: 10 },
      { state: 'confirmed', position: 11 },
      { state: 'confirmed', position: 12 },
    ]);
    expect(anyPending(verdicts)).toBe(false);
  });

  it('passes over entries that are not ours (an earlier append landing late)', () => {
    expect(matchAppended(sent(['song:5'], 0), [['song:9'], ['library:i.X', 'song:5']], 3)).toEqual([{ state: 'confirmed', position: 4 }]);
  });

  it('calls a track missing from a request that landed skipped, and a request that has not landed pending', () => {
    const verdicts = matchAppended([...sent(['song:1', 'song:404', 'song:3'], 0), ...sent(['song:7'], 1)], [['song:1'], ['song:3']], 0);
    expect(verdicts).toEqual([{ state: 'confirmed', position: 0 }, { state: 'skipped' }, { state: 'confirmed', position: 1 }, { state: 'pending' }]);
    expect(anyPending(verdicts)).toBe(true);
  });
});

describe('paging', () => {
  it('round-trips its cursor and refuses foreign ones', () => {
    expect(decodeOffset(null)).toBe(0);
    expect(decodeOffset(encodeOffset(250))).toBe(250);
    expect(() => decodeOffset('t1.0.0.')).toThrow(/not issued/);
  });

  it('reads Apple pages of at most 100 to fill a larger engine page, and stops at the end', async () => {
    const all = Array.from({ length: 230 }, (_, index) => index);
    const asked: [number, number][] = [];
    const fetchPage = async (offset: number, limit: number) => {
      asked.push([offset, limit]);
      const data = all.slice(offset, offset + limit);
      return { data, next: offset + limit < all.length ? `/v1/x?offset=${offset + limit}` : null, total: all.length };
    };
    const first = await collectOffsetPage(0, 150, fetchPage, (item, index) => [item, index]);
    expect(first.items).toHaveLength(150);
    expect(first.items[149]).toEqual([149, 149]);
    expect(first.next_cursor).toBe('a1.150');
    expect(asked).toEqual([
      [0, 100],
      [100, 50],
    ]);
    const rest = await collectOffsetPage(150, 150, fetchPage, (item) => item);
    expect(rest).toEqual({ items: all.slice(150), next_cursor: null, total: 230 });
  });

  it('treats a body without data as a malformed answer', () => {
    expect(() => readPage({ errors: [] }, 'reading')).toThrow(/without data/);
    expect(readPage({ data: [], meta: { total: 'x' } }, 'reading')).toEqual({ data: [], next: null, total: null });
  });
});

describe('errors', () => {
  const body = { errors: [{ id: 'X', title: 'Forbidden', detail: 'secret detail with token mut-abc', status: '403', code: '40300' }] };

  it('maps statuses to typed errors without the body', () => {
    const forbidden = errorForResponse({ status: 403, headers: {}, body }, 'reading playlists', NOW);
    expect(forbidden.type).toBe('AuthExpired');
    expect(forbidden.message).toContain('HTTP 403 40300');
    expect(forbidden.message).not.toContain('secret');
    expect(errorForResponse({ status: 401, headers: {}, body: null }, 'x', NOW).type).toBe('AuthExpired');
    expect(errorForResponse({ status: 404, headers: {}, body: null }, 'x', NOW).type).toBe('NotFound');
    expect(errorForResponse({ status: 400, headers: {}, body: null }, 'x', NOW).type).toBe('InvalidInput');
    expect(errorForResponse({ status: 502, headers: {}, body: null }, 'x', NOW).type).toBe('ProviderError');
    const limited = errorForResponse({ status: 429, headers: { 'retry-after': '7' }, body: null }, 'x', NOW);
    expect(limited.type).toBe('RateLimited');
    expect(limited.toData().retry_after_s).toBe(7);
  });

  it('reads only Apple’s five-digit codes and both Retry-After forms', () => {
    expect(appleErrorCode(body)).toBe('40300');
    expect(appleErrorCode({ errors: [{ code: 'DROP TABLE' }] })).toBeNull();
    const dated = errorForResponse({ status: 429, headers: { 'retry-after': 'Sat, 21 Nov 2026 12:00:30 GMT' }, body: null }, 'x', NOW);
    expect(dated.toData()).toMatchObject({ type: 'RateLimited', retry_after_s: 30 });
    expect(errorForResponse({ status: 429, headers: { 'retry-after': 'soon' }, body: null }, 'x', NOW).toData()).toMatchObject({ retry_after_s: null });
  });
});

describe('search input', () => {
  it('normalises ISRCs and builds the term', () => {
    expect(normaliseIsrc(' gb-aye-24-00001 ')).toBe('GBAYE2400001');
    expect(normaliseIsrc('nope')).toBeNull();
    expect(searchTerm(['  Golden  Hour ', null, 'Mira Solberg'])).toBe('Golden Hour Mira Solberg');
    expect(searchTerm(['x'.repeat(500)])).toHaveLength(200);
  });
});
