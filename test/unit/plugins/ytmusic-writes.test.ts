import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, slicePage } from '../../../plugins/providers/ytmusic/src/page-cursor.ts';
import { addedSetVideoIds, cleanText, editSucceeded } from '../../../plugins/providers/ytmusic/src/playlist-writes.ts';
import { errorForResponse, readGoogleError } from '../../../plugins/providers/ytmusic/src/response-errors.ts';
import { textQuery } from '../../../plugins/providers/ytmusic/src/search-ops.ts';
import { additionBlocks } from '../../../plugins/providers/ytmusic/src/write-batches.ts';

/** Batching, cursors, edit answers, error mapping and query building: pure parts of the plugin. */

describe('addition blocks', () => {
  it('groups appended items and consecutive positions, splitting at the batch size', () => {
    const items = [
      { index: 0, videoId: 'a', position: null },
      { index: 1, videoId: 'b', position: null },
      { index: 2, videoId: 'c', position: 4 },
      { index: 3, videoId: 'd', position: 5 },
      { index: 4, videoId: 'e', position: 9 },
      { index: 5, videoId: 'f', position: null },
    ];
    expect(additionBlocks(items, 50).map((block) => [block.position, block.items.map((item) => item.videoId).join('')])).toEqual([
      [null, 'ab'],
      [4, 'cd'],
      [9, 'e'],
      [null, 'f'],
    ]);
    const many = Array.from({ length: 120 }, (_, index) => ({ index, videoId: `v${index}`, position: null }));
    expect(additionBlocks(many, 50).map((block) => block.items.length)).toEqual([50, 50, 20]);
  });
});

describe('page cursors', () => {
  it('slices provider pages into engine pages with absolute positions', () => {
    const page = { items: ['a', 'b', 'c', 'd', 'e'], next: 'tok' };
    const first = slicePage(page, decodeCursor(null), 2);
    expect(first.items).toEqual([{ item: 'a', position: 0 }, { item: 'b', position: 1 }]);
    const third = slicePage(page, decodeCursor(slicePage(page, decodeCursor(first.next_cursor), 2).next_cursor), 2);
    expect(third.items).toEqual([{ item: 'e', position: 4 }]);
    expect(decodeCursor(third.next_cursor)).toEqual({ token: 'tok', skip: 0, base: 5 });
    expect(slicePage({ items: ['x'], next: null }, { token: 'tok', skip: 0, base: 5 }, 2)).toEqual({ items: [{ item: 'x', position: 5 }], next_cursor: null });
  });

  it('round-trips and refuses foreign cursors', () => {
    expect(decodeCursor(encodeCursor({ token: '4qmFsgI0EiRW%3D', skip: 3, base: 100 }))).toEqual({ token: '4qmFsgI0EiRW%3D', skip: 3, base: 100 });
    expect(() => decodeCursor('50')).toThrow(/paging cursor/);
  });
});

describe('edit answers', () => {
  it('reads the new setVideoIds in action order and tells a refusal apart', () => {
    const answer = { status: 'STATUS_SUCCEEDED', playlistEditResults: [{ playlistEditVideoAddedResultData: { videoId: 'a', setVideoId: 'S1' } }, { playlistEditVideoAddedResultData: { videoId: 'a', setVideoId: 'S2' } }] };
    expect(editSucceeded(answer)).toBe(true);
    expect(addedSetVideoIds(answer)).toEqual(['S1', 'S2']);
    expect(editSucceeded({ status: 'STATUS_FAILED', actions: [] })).toBe(false);
    expect(editSucceeded({})).toBe(false);
  });

  it('keeps titles free of the characters YouTube refuses', () => {
    expect(cleanText(' <b>Road</b>\ntrip ', 150)).toBe('bRoad/b trip');
    expect(cleanText('x'.repeat(200), 150)).toHaveLength(150);
  });
});

describe('error mapping', () => {
  const body = (status: number, word: string, reason?: string) => JSON.stringify({ error: { code: status, message: 'The caller SAPISID=secret does not have permission', errors: [{ reason: reason ?? word.toLowerCase() }], status: word } });
  const purpose = { what: 'adding songs', missing: 'playlist', ownerOnly: true };

  it('maps statuses to typed errors without echoing the body', () => {
    expect(errorForResponse({ status: 401, headers: {}, bodyText: body(401, 'UNAUTHENTICATED') }, purpose, 0).type).toBe('AuthExpired');
    expect(errorForResponse({ status: 403, headers: {}, bodyText: body(403, 'PERMISSION_DENIED') }, purpose, 0).type).toBe('Unsupported');
    expect(errorForResponse({ status: 403, headers: {}, bodyText: body(403, 'PERMISSION_DENIED', 'ACCESS_TOKEN_SCOPE_INSUFFICIENT') }, purpose, 0).type).toBe('AuthExpired');
    expect(errorForResponse({ status: 403, headers: {}, bodyText: '' }, { what: 'reading' }, 0).type).toBe('AuthExpired');
    expect(errorForResponse({ status: 404, headers: {}, bodyText: body(404, 'NOT_FOUND') }, purpose, 0).type).toBe('NotFound');
    expect(errorForResponse({ status: 400, headers: {}, bodyText: body(400, 'INVALID_ARGUMENT') }, purpose, 0).message).toContain('INVALID_ARGUMENT');
    expect(errorForResponse({ status: 503, headers: {}, bodyText: 'oops' }, purpose, 0).type).toBe('ProviderError');
    const limited = errorForResponse({ status: 429, headers: { 'retry-after': '7' }, bodyText: body(429, 'RESOURCE_EXHAUSTED') }, purpose, 0);
    expect(limited.toData()).toMatchObject({ type: 'RateLimited', retry_after_s: 7 });
    for (const status of [400, 401, 403, 404, 429, 500]) expect(errorForResponse({ status, headers: {}, bodyText: body(status, 'X') }, purpose, 0).message).not.toContain('secret');
  });

  it('reads only well-formed status words and reasons', () => {
    expect(readGoogleError('{"error":{"status":"NOT_FOUND","errors":[{"reason":"notFound"}]}}')).toEqual({ status: 'NOT_FOUND', reason: 'notFound' });
    expect(readGoogleError('{"error":{"status":"<script>"}}')).toEqual({ status: null, reason: null });
    expect(readGoogleError('not json')).toEqual({ status: null, reason: null });
  });
});

describe('search query', () => {
  it('prefers free text, else title and artist', () => {
    expect(textQuery({ isrc: null, title: 'Paper Moon', artist: 'Glass Orchard', album: 'X', duration_s: null, text: null })).toBe('Paper Moon Glass Orchard');
    expect(textQuery({ isrc: null, title: null, artist: null, album: null, duration_s: null, text: '  hello   world ' })).toBe('hello world');
    expect(textQuery({ isrc: 'GBAAA0000001', title: null, artist: null, album: null, duration_s: null, text: null })).toBeNull();
  });
});
