import { describe, expect, it } from 'vitest';
import { PluginError, type PluginRequestInit, type PluginResponse, type ProviderContext } from '@opl/plugin-sdk';
import { saveAlbums } from '../../../plugins/providers/tidal/src/library.operations.ts';
import { addTracks, removeTracks } from '../../../plugins/providers/tidal/src/playlist-write.operations.ts';

/**
 * The write paths with a scripted context: batch splitting, `positionBefore`, per-item results
 * in input order, skipped items, and failures after a partial success. (The real sandbox and fake
 * server are exercised in the integration tests.)
 */

interface Sent {
  readonly url: string;
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly body: { data: { id: string; type: string; meta?: { itemId?: string } }[]; meta?: { positionBefore?: string } } | null;
}

type Answer = { status: number; body: unknown; headers?: Record<string, string> } | 'network';

function scripted(answer: (request: Sent, index: number) => Answer) {
  const sent: Sent[] = [];
  const ctx = {
    account: { id: 'acct-1', label: null },
    credential: null,
    log: { debug() {}, info() {}, warn() {}, error() {} },
    decodeText: () => '',
    encodeText: () => new Uint8Array(),
    now: () => '2026-11-21T12:00:00.000Z',
    async fetch(url: string, init?: PluginRequestInit): Promise<PluginResponse> {
      const request: Sent = { url, method: init?.method ?? 'GET', headers: init?.headers ?? {}, body: init?.body ? JSON.parse(init.body) : null };
      sent.push(request);
      const result = answer(request, sent.length - 1);
      if (result === 'network') throw new TypeError('connection reset');
      const text = JSON.stringify(result.body);
      return { status: result.status, ok: result.status < 300, headers: result.headers ?? {}, url, text: () => text, json: () => result.body, bytes: () => new Uint8Array() };
    },
  } satisfies ProviderContext;
  return { ctx, sent };
}

/** Answers POSTs as TIDAL does: the added entries with fresh item ids, unknown ids skipped. */
function added(request: Sent, unknown: readonly string[] = []): Answer {
  const data = request.body!.data.filter((entry) => !unknown.includes(entry.id)).map((entry, index) => ({ id: entry.id, type: entry.type, meta: { itemId: `new-${entry.id}-${index}`, addedAt: '2026-11-21T12:00:00Z' } }));
  const skipped = request.body!.data.filter((entry) => unknown.includes(entry.id)).map((entry) => ({ id: entry.id, type: entry.type, reason: 'NOT_FOUND' }));
  return { status: 200, body: { data, links: { self: '/x' }, meta: { skipped } } };
}

const uris = (count: number, from = 1) => Array.from({ length: count }, (_, index) => ({ uri: `tidal:track:${from + index}`, position: null }));

describe('addTracks', () => {
  it('appends in requests of 50 with stable idempotency keys and results in input order', async () => {
    const { ctx, sent } = scripted((request) => added(request));
    const result = await addTracks({ playlist_id: 'p1', items: uris(120) }, ctx);
    expect(sent.map((request) => [request.method, request.body!.data.length, request.body!.meta])).toEqual([
      ['POST', 50, undefined],
      ['POST', 50, undefined],
      ['POST', 20, undefined],
    ]);
    expect(sent.every((request) => request.headers['content-type'] === 'application/vnd.api+json')).toBe(true);
    const keys = sent.map((request) => request.headers['idempotency-key']);
    expect(new Set(keys).size).toBe(3);
    const again = scripted((request) => added(request));
    await addTracks({ playlist_id: 'p1', items: uris(120) }, again.ctx);
    expect(again.sent.map((request) => request.headers['idempotency-key'])).toEqual(keys);
    expect(result.results.map((entry) => entry.uri)).toEqual(uris(120).map((item) => item.uri));
    expect(result.results.every((entry) => entry.ok && entry.target_item_id?.startsWith('new-'))).toBe(true);
  });

  it('inserts at positions before the entry found there, tracking the layout between batches', async () => {
    const layout = { data: ['x0', 'x1', 'x2'].map((itemId, index) => ({ id: String(900 + index), type: 'tracks', meta: { itemId } })), links: { self: '/l' } };
    const { ctx, sent } = scripted((request) => (request.method === 'GET' ? { status: 200, body: layout } : added(request)));
    const items = [
      { uri: 'tidal:track:1', position: 1 },
      { uri: 'tidal:track:2', position: 2 },
      { uri: 'tidal:track:3', position: 0 },
      { uri: 'tidal:track:4', position: 99 },
      { uri: 'tidal:video:5', position: null },
    ];
    const result = await addTracks({ playlist_id: 'p1', items }, ctx);
    const posts = sent.filter((request) => request.method === 'POST');
    expect(posts.map((request) => [request.body!.data.map((entry) => `${entry.type}:${entry.id}`), request.body!.meta?.positionBefore ?? null])).toEqual([
      [['tracks:1', 'tracks:2'], 'x1'],
      [['tracks:3'], 'x0'],
      [['tracks:4'], null],
      [['videos:5'], null],
    ]);
    expect(result.results.map((entry) => entry.position)).toEqual([1, 2, 0, 6, 7]);
  });

  it('reports unknown tracks and foreign URIs per item, and keeps the rest', async () => {
    const { ctx, sent } = scripted((request) => added(request, ['2']));
    const result = await addTracks({ playlist_id: 'p1', items: [{ uri: 'tidal:track:1', position: null }, { uri: 'tidal:track:2', position: null }, { uri: 'spotify:track:abc', position: null }, { uri: 'tidal:track:3', position: null }] }, ctx);
    expect(sent).toHaveLength(1);
    expect(result.results.map((entry) => [entry.ok, entry.error?.type ?? null])).toEqual([
      [true, null],
      [false, 'NotFound'],
      [false, 'InvalidInput'],
      [true, null],
    ]);
    expect(result.results[3]!.target_item_id).toBe('new-3-1');
  });

  it('throws the typed error when the first request fails, and marks the rest after a partial success', async () => {
    const first = scripted(() => ({ status: 429, body: { errors: [{ status: '429' }] }, headers: { 'retry-after': '40' } }));
    const error = await addTracks({ playlist_id: 'p1', items: uris(3) }, first.ctx).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PluginError);
    expect((error as PluginError).toData()).toMatchObject({ type: 'RateLimited', retry_after_s: 40 });

    const partial = scripted((request, index) => (index === 0 ? added(request) : 'network'));
    const result = await addTracks({ playlist_id: 'p1', items: uris(70) }, partial.ctx);
    expect(result.results.slice(0, 50).every((entry) => entry.ok)).toBe(true);
    expect(result.results.slice(50).every((entry) => !entry.ok && entry.error?.type === 'ProviderError')).toBe(true);
  });
});

describe('removeTracks', () => {
  it('removes by item id, and finds entries without one by position or first unclaimed occurrence', async () => {
    const layout = { data: [['7', 'a'], ['8', 'b'], ['7', 'c'], ['9', 'd']].map(([id, itemId]) => ({ id, type: 'tracks', meta: { itemId } })), links: { self: '/l' } };
    const { ctx, sent } = scripted((request) => (request.method === 'GET' ? { status: 200, body: layout } : { status: 200, body: { links: { self: '/x' } } }));
    const result = await removeTracks(
      {
        playlist_id: 'p1',
        snapshot_id: null,
        items: [
          { uri: 'tidal:track:9', target_item_id: 'd', position: null },
          { uri: 'tidal:track:7', target_item_id: null, position: 2 },
          { uri: 'tidal:track:7', target_item_id: null, position: null },
          { uri: 'tidal:track:7', target_item_id: null, position: null },
        ],
      },
      ctx,
    );
    const deletes = sent.filter((request) => request.method === 'DELETE');
    expect(deletes).toHaveLength(1);
    expect(deletes[0]!.body!.data).toEqual([
      { id: '9', type: 'tracks', meta: { itemId: 'd' } },
      { id: '7', type: 'tracks', meta: { itemId: 'c' } },
      { id: '7', type: 'tracks', meta: { itemId: 'a' } },
    ]);
    expect(result.results.map((entry) => [entry.ok, entry.target_item_id, entry.error?.type ?? null])).toEqual([
      [true, 'd', null],
      [true, 'c', null],
      [true, 'a', null],
      [false, null, 'NotFound'],
    ]);
  });

  it('splits removals into requests of 50', async () => {
    const { ctx, sent } = scripted(() => ({ status: 200, body: { links: { self: '/x' } } }));
    const items = Array.from({ length: 101 }, (_, index) => ({ uri: `tidal:track:${index + 1}`, target_item_id: `i${index}`, position: null }));
    const result = await removeTracks({ playlist_id: 'p1', snapshot_id: null, items }, ctx);
    expect(sent.map((request) => request.body!.data.length)).toEqual([50, 50, 1]);
    expect(result.results.every((entry) => entry.ok)).toBe(true);
  });
});

describe('saveAlbums', () => {
  it('treats ALREADY_PRESENT as saved and NOT_FOUND as a per-item failure', async () => {
    const { ctx, sent } = scripted(() => ({ status: 200, body: { data: [{ id: '1', type: 'albums', meta: { addedAt: '2026-11-21T12:00:00Z' } }], links: { self: '/x' }, meta: { skipped: [{ id: '2', type: 'albums', reason: 'ALREADY_PRESENT' }, { id: '3', type: 'albums', reason: 'NOT_FOUND' }] } } }));
    const result = await saveAlbums({ items: [{ uri: 'tidal:album:1' }, { uri: 'tidal:album:2' }, { uri: 'tidal:album:3' }, { uri: 'tidal:track:4' }] }, ctx);
    expect(sent[0]!.url).toBe('https://openapi.tidal.com/v2/userCollectionAlbums/me/relationships/items');
    expect(sent[0]!.body!.data).toEqual([{ id: '1', type: 'albums' }, { id: '2', type: 'albums' }, { id: '3', type: 'albums' }]);
    expect(result.results.map((entry) => [entry.ok, entry.error?.type ?? null])).toEqual([
      [true, null],
      [true, null],
      [false, 'NotFound'],
      [false, 'InvalidInput'],
    ]);
  });
});
