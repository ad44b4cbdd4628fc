import { describe, expect, it } from 'vitest';
import { NotFound, ProviderError, providerKit, type PluginResponse, type ProviderContext } from '../../../plugin-sdk/src/index.ts';

const { at, clampPageSize, firstErrorField, pathSegment, queryString, requestJson, safeDetail, statusSuffix, unreachableError } = providerKit;

/** A context whose fetch answers with `answer` (or throws it, when it is an Error). */
function contextAnswering(answer: { status: number; text: string; headers?: Record<string, string> } | Error): ProviderContext {
  return {
    async fetch(url: string): Promise<PluginResponse> {
      if (answer instanceof Error) throw answer;
      return { status: answer.status, ok: answer.status >= 200 && answer.status < 300, headers: answer.headers ?? {}, url, text: () => answer.text, json: (): unknown => JSON.parse(answer.text) as unknown, bytes: () => new Uint8Array() };
    },
    now: () => '2026-01-01T00:00:00.000Z',
  } as unknown as ProviderContext;
}

const errors = {
  unreachable: (error: unknown) => new ProviderError(`unreachable: ${error instanceof Error ? error.message : '?'}`),
  failed: (response: providerKit.FailedResponse) => new ProviderError(`failed ${response.status} ${JSON.stringify(response.body)} ${response.bodyText.length} ${response.headers['retry-after'] ?? ''}`),
  unreadable: () => new ProviderError('unreadable'),
};

describe('providerKit.requestJson', () => {
  it('resolves with the parsed body of a 2xx answer, and null for an empty one', async () => {
    await expect(requestJson(contextAnswering({ status: 200, text: ' {"a":[1]} ' }), { url: 'https://x.test/a', ...errors })).resolves.toEqual({ a: [1] });
    await expect(requestJson(contextAnswering({ status: 204, text: '  ' }), { url: 'https://x.test/a', ...errors })).resolves.toBeNull();
  });

  it('calls an empty 2xx body unreadable when asked to', async () => {
    await expect(requestJson(contextAnswering({ status: 200, text: '' }), { url: 'https://x.test/a', ...errors, emptyIsNull: false })).rejects.toThrow('unreadable');
    await expect(requestJson(contextAnswering({ status: 200, text: '<html>' }), { url: 'https://x.test/a', ...errors })).rejects.toThrow('unreadable');
  });

  it('hands a non-2xx answer to `failed` with its parsed body (null when it is not JSON) and headers', async () => {
    await expect(requestJson(contextAnswering({ status: 429, text: '{"e":1}', headers: { 'retry-after': '7' } }), { url: 'https://x.test/a', ...errors })).rejects.toThrow('failed 429 {"e":1} 7 7');
    await expect(requestJson(contextAnswering({ status: 502, text: '<html>bad gateway</html>' }), { url: 'https://x.test/a', ...errors })).rejects.toThrow('failed 502 null 24 ');
  });

  it('hands a request without an answer to `unreachable` with the host error', async () => {
    await expect(requestJson(contextAnswering(new Error('socket hang up')), { url: 'https://x.test/a', ...errors })).rejects.toThrow('unreachable: socket hang up');
  });
});

describe('providerKit error details', () => {
  it('reads the first error entry’s field only when it matches the pattern', () => {
    expect(firstErrorField({ errors: [{ code: '40400' }, { code: '50000' }] }, ['errors'], 'code', /^\d{5}$/)).toBe('40400');
    expect(firstErrorField({ errors: [{ code: 'see https://x' }] }, ['errors'], 'code', /^\d{5}$/)).toBeNull();
    expect(firstErrorField({ error: { errors: [{ reason: 'quotaExceeded' }] } }, ['error', 'errors'], 'reason', /^[A-Za-z]+$/)).toBe('quotaExceeded');
    for (const body of [null, 'text', [], { errors: {} }, { errors: ['x'] }, { errors: [{ code: 40400 }] }]) expect(firstErrorField(body, ['errors'], 'code', /^\d+$/)).toBeNull();
  });

  it('ends a message with the status and the code, and keeps only plain short details', () => {
    expect(statusSuffix(404, '40400')).toBe('(HTTP 404 40400)');
    expect(statusSuffix(500, null)).toBe('(HTTP 500)');
    expect(safeDetail('  Invalid limit. ')).toBe('Invalid limit.');
    expect(safeDetail('token=abc&x=<script>')).toBeNull();
    expect(safeDetail('x'.repeat(161))).toBeNull();
    expect(safeDetail(null)).toBeNull();
  });

  it('says whether a lost write may have been applied', () => {
    expect(unreachableError(new Error('reset'), { provider: 'Example', what: 'reading playlists', write: false }).message).toBe('Could not reach Example while reading playlists: reset');
    expect(unreachableError('?', { provider: 'Example', what: 'adding tracks', write: true, readBack: 'the playlist' }).message).toBe(
      'The answer from Example was lost while adding tracks: the request failed. The change may or may not have been applied; read the playlist before retrying.',
    );
  });
});

describe('providerKit readers and URL parts', () => {
  it('follows a path of keys and indexes, undefined at the first missing step', () => {
    const value = { a: [{ b: 'x' }] };
    expect(at(value, 'a', 0, 'b')).toBe('x');
    expect(at(value, 'a', 'b')).toBeUndefined();
    expect(at(value, 0)).toBeUndefined();
  });

  it('builds query strings without empty values and clamps page sizes', () => {
    expect(queryString({ 'filter[isrc]': 'US1', limit: 10, empty: '', none: null, flag: true })).toBe('?filter[isrc]=US1&limit=10&flag=true');
    expect(queryString({ none: undefined })).toBe('');
    expect([clampPageSize(0, 50), clampPageSize(7.9, 50), clampPageSize(500, 50)]).toEqual([1, 7, 50]);
  });

  it('refuses an id that could not be one before it reaches a path', () => {
    expect(pathSegment('pl.u-abc_1~', 'Example')).toBe('pl.u-abc_1~');
    for (const id of ['..', 'a/b', '%2F', '']) expect(() => pathSegment(id, 'Example')).toThrow(NotFound);
  });
});
