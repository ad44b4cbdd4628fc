import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { attachmentFileName, downloadRequest } from '../../../ui/src/api/http.ts';

describe('attachment file names', () => {
  it('prefers the RFC 5987 name, then the quoted ASCII name, then the fallback', () => {
    expect(attachmentFileName(`attachment; filename="Road Trip - Ete.csv"; filename*=UTF-8''Road%20Trip%20%E2%80%93%20%C3%89t%C3%A9.csv`, 'x')).toBe('Road Trip – Été.csv');
    expect(attachmentFileName('attachment; filename="Mix.zip"', 'x')).toBe('Mix.zip');
    expect(attachmentFileName(`attachment; filename*=UTF-8''%E0%A4%A`, 'fallback')).toBe('fallback');
    expect(attachmentFileName(null, 'export')).toBe('export');
  });
});

/**
 * `downloadRequest` against a real HTTP server on this machine, each test answering as it needs:
 * a file, a file cut off by a dropped connection, no answer at all. The failures are real ones
 * (a socket destroyed, a timer run out, an abort), as the browser meets them.
 */
describe('downloading an export', () => {
  let server: Server;
  let url: string;
  let answer: (request: IncomingMessage, response: ServerResponse) => void = () => undefined;
  /** Sockets of answers left hanging, closed after each test. */
  const open = new Set<ServerResponse>();

  beforeAll(async () => {
    server = createServer((request, response) => {
      open.add(response);
      response.on('close', () => open.delete(response));
      request.resume();
      request.on('end', () => answer(request, response));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/exports`;
  });

  afterEach(() => {
    for (const response of open) response.destroy();
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  /** Headers and the first bytes of a CSV file, and then nothing (the caller ends the connection or not). */
  function startFile(response: ServerResponse): void {
    response.writeHead(200, { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="Mix.csv"', 'content-length': '1000' });
    response.write('schema_version,');
  }

  it('reads the file, its name and its warning count', async () => {
    answer = (_request, response) => {
      response.writeHead(200, { 'content-disposition': 'attachment; filename="Mix.csv"', 'x-open-playlist-warning-count': '2' });
      response.end('a,b\n');
    };
    const result = await downloadRequest(url, {});
    expect(result).toMatchObject({ ok: true, fileName: 'Mix.csv', warningCount: 2 });
    if (result.ok) expect(await result.blob.text()).toBe('a,b\n');
  });

  it('a file that stops arriving part-way is a problem to show, never a rejection that leaves the page waiting', async () => {
    answer = (_request, response) => {
      startFile(response);
      // The connection drops after the first bytes: the engine went away mid-file.
      setTimeout(() => response.socket?.destroy(), 20);
    };
    const result = await downloadRequest(url, {});
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.status).toBe(0);
    expect(result.problem).toMatchObject({ title: 'The download was interrupted', code: 'download_interrupted' });
  });

  it('out of time: says how long it waited, not that the engine cannot be reached', async () => {
    // No answer at all; the browser's timer runs out.
    answer = () => undefined;
    const result = await downloadRequest(url, {}, 200);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problem).toMatchObject({ code: 'download_timeout', title: 'The export took too long' });
    expect(result.problem.detail).toContain('had not started arriving after 1 minute');
  });

  it('stopped by the user: a cancellation, before or while the file arrives', async () => {
    const before = new AbortController();
    answer = () => before.abort();
    const early = await downloadRequest(url, {}, 60_000, before.signal);
    expect(!early.ok && early.problem.code).toBe('download_cancelled');

    const during = new AbortController();
    answer = (_request, response) => {
      startFile(response);
      setTimeout(() => during.abort(), 20);
    };
    const cut = await downloadRequest(url, {}, 60_000, during.signal);
    expect(!cut.ok && cut.problem.code).toBe('download_cancelled');
  });
});
