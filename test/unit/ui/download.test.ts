import { afterEach, describe, expect, it, vi } from 'vitest';
import { attachmentFileName, downloadRequest } from '../../../ui/src/api/http.ts';

describe('attachment file names', () => {
  it('prefers the RFC 5987 name, then the quoted ASCII name, then the fallback', () => {
    expect(attachmentFileName(`attachment; filename="Road Trip - Ete.csv"; filename*=UTF-8''Road%20Trip%20%E2%80%93%20%C3%89t%C3%A9.csv`, 'x')).toBe('Road Trip – Été.csv');
    expect(attachmentFileName('attachment; filename="Mix.zip"', 'x')).toBe('Mix.zip');
    expect(attachmentFileName(`attachment; filename*=UTF-8''%E0%A4%A`, 'fallback')).toBe('fallback');
    expect(attachmentFileName(null, 'export')).toBe('export');
  });
});

describe('downloading an export', () => {
  afterEach(() => vi.unstubAllGlobals());

  /** An answer whose headers came and whose file stops after its first bytes. */
  function cutOffAnswer(error: Error): Response {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('schema_version,'));
        controller.error(error);
      },
    });
    return new Response(body, { status: 200, headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="Mix.csv"' } });
  }

  it('reads the file, its name and its warning count', async () => {
    vi.stubGlobal('fetch', async () => new Response('a,b\n', { status: 200, headers: { 'content-disposition': 'attachment; filename="Mix.csv"', 'x-open-playlist-warning-count': '2' } }));
    const answer = await downloadRequest('/api/exports', {});
    expect(answer).toMatchObject({ ok: true, fileName: 'Mix.csv', warningCount: 2 });
  });

  it('a file that stops arriving part-way is a problem to show, never a rejection that leaves the page waiting', async () => {
    vi.stubGlobal('fetch', async () => cutOffAnswer(new TypeError('network error')));
    const answer = await downloadRequest('/api/exports', {});
    expect(answer.ok).toBe(false);
    if (answer.ok) return;
    expect(answer.status).toBe(0);
    expect(answer.problem).toMatchObject({ title: 'The download was interrupted', code: 'download_interrupted' });
  });

  it('out of time: says how long it waited, not that the engine cannot be reached', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new DOMException('The operation timed out.', 'TimeoutError');
    });
    const answer = await downloadRequest('/api/exports', {}, 300_000);
    expect(answer.ok).toBe(false);
    if (answer.ok) return;
    expect(answer.problem).toMatchObject({ code: 'download_timeout', title: 'The export took too long' });
    expect(answer.problem.detail).toContain('after 5 minutes');
  });

  it('stopped by the user: a cancellation, before or while the file arrives', async () => {
    const cancel = new AbortController();
    vi.stubGlobal('fetch', async (_path: string, init: RequestInit) => {
      cancel.abort();
      throw init.signal?.reason ?? new DOMException('aborted', 'AbortError');
    });
    const before = await downloadRequest('/api/exports', {}, 60_000, cancel.signal);
    expect(!before.ok && before.problem.code).toBe('download_cancelled');

    const during = new AbortController();
    vi.stubGlobal('fetch', async () => {
      during.abort();
      return cutOffAnswer(new DOMException('aborted', 'AbortError'));
    });
    const cut = await downloadRequest('/api/exports', {}, 60_000, during.signal);
    expect(!cut.ok && cut.problem.code).toBe('download_cancelled');
  });
});
