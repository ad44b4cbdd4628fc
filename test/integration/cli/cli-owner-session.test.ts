import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, request as httpRequest, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOpl } from '../support/engine-process.ts';
import { firstPartyPlugins } from '../support/first-party-plugins.ts';
import { GATE_OWNER_SECRET, SESSION_GATE_ENV, startTestApp, type TestApp } from '../support/test-app.ts';

/**
 * `opl export` and `opl migrate` against an engine with the owner-session gate on: they log in
 * with OPL_OWNER_SECRET, and they log out again when they end — done, failed or interrupted — so
 * the session cookie is worth nothing afterwards. A proxy between the CLI and the engine records
 * the cookies the engine hands out, which the test then tries.
 */

interface RecordingProxy {
  url: string;
  /** Every `opl_session=<token>` the engine set, in order. */
  cookies: string[];
  /** Requests the proxy holds unanswered (the CLI waits), as "METHOD path". */
  held: string[];
  close(): Promise<void>;
}

async function startRecordingProxy(target: string, hold: (method: string, path: string) => boolean = () => false): Promise<RecordingProxy> {
  const cookies: string[] = [];
  const held: string[] = [];
  const waiting: ServerResponse[] = [];
  const server: Server = createServer((request, response) => {
    if (hold(request.method ?? 'GET', request.url ?? '/')) {
      held.push(`${request.method} ${request.url}`);
      waiting.push(response);
      return;
    }
    const upstream = httpRequest(new URL(request.url ?? '/', target), { method: request.method, headers: request.headers }, (answer) => {
      for (const line of answer.headers['set-cookie'] ?? []) {
        const pair = line.split(';')[0]!;
        if (pair.startsWith('opl_session=') && pair !== 'opl_session=') cookies.push(pair);
      }
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    upstream.on('error', () => response.destroy());
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    cookies,
    held,
    async close() {
      for (const response of waiting) response.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

let plugins: Awaited<ReturnType<typeof firstPartyPlugins>>;
let gated: TestApp;
let engineUrl = '';
let ownerCookie = '';
let importId = '';
let work = '';

/** The status of a private route with `cookie`: 200 while the session lives, 401 once it is gone. */
async function privateStatus(cookie: string): Promise<number> {
  const response = await fetch(`${engineUrl}/api/migrations`, { headers: { cookie } });
  await response.body?.cancel();
  return response.status;
}

beforeAll(async () => {
  plugins = await firstPartyPlugins();
  gated = await startTestApp({ ...plugins.env, ...SESSION_GATE_ENV });
  const address = gated.app.http!.server.address();
  engineUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const login = await fetch(`${engineUrl}/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ secret: GATE_OWNER_SECRET }) });
  expect(login.status).toBe(204);
  ownerCookie = login.headers.getSetCookie().map((line) => line.split(';')[0]!).find((pair) => pair.startsWith('opl_session='))!;
  const pasted = await fetch(`${engineUrl}/api/imports/text-preview`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: ownerCookie },
    body: JSON.stringify({ text: 'Daft Punk - One More Time\nRöyksopp - Eple', name: 'Pasted' }),
  });
  expect(pasted.status, await pasted.clone().text()).toBe(201);
  importId = ((await pasted.json()) as { id: string }).id;
  work = await mkdtemp(join(tmpdir(), 'opl-cli-session-'));
}, 240_000);

afterAll(async () => {
  await gated?.close();
  await plugins?.remove();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('the CLI against an engine with the owner-session gate on', () => {
  it('opl export asks for OPL_OWNER_SECRET, logs in with it, exports, and logs out when done', { timeout: 120_000 }, async () => {
    const args = ['export', '--source', `import:${importId}`, '--format', 'csv'];
    const anonymous = runOpl([...args, '--url', engineUrl, '-o', join(work, 'anonymous.csv')], {});
    expect((await anonymous.exited).code).toBe(1);
    expect(anonymous.output()).toMatch(/requires an owner session: set OPL_OWNER_SECRET/);
    const wrong = runOpl([...args, '--url', engineUrl, '-o', join(work, 'wrong.csv')], { OPL_OWNER_SECRET: 'not the secret' });
    expect((await wrong.exited).code).toBe(1);
    expect(wrong.output()).toMatch(/owner secret is not correct/);
    expect(await readdir(work)).toEqual([]);

    const proxy = await startRecordingProxy(engineUrl);
    try {
      const owner = runOpl([...args, '--url', proxy.url, '-o', join(work, 'pasted.csv')], { OPL_OWNER_SECRET: GATE_OWNER_SECRET });
      expect((await owner.exited).code, owner.output()).toBe(0);
      expect(await readFile(join(work, 'pasted.csv'), 'utf8')).toContain('One More Time');
      expect(proxy.cookies).toHaveLength(1);
      expect(await privateStatus(proxy.cookies[0]!)).toBe(401);
      // The engine still takes a session that was not ended: the 401 above is the CLI's logout.
      expect(await privateStatus(ownerCookie)).toBe(200);

      // Refused by the engine after logging in: logged out all the same.
      const refused = runOpl(['export', '--source', 'import:00000000-0000-4000-8000-000000000000', '--format', 'csv', '--url', proxy.url, '-o', join(work, 'none.csv')], { OPL_OWNER_SECRET: GATE_OWNER_SECRET });
      expect((await refused.exited).code).toBe(1);
      expect(proxy.cookies).toHaveLength(2);
      expect(await privateStatus(proxy.cookies[1]!)).toBe(401);
    } finally {
      await proxy.close();
    }
  });

  it('opl migrate logs out when done, and when Ctrl-C ends it while it waits for the engine', { timeout: 120_000 }, async () => {
    const proxy = await startRecordingProxy(engineUrl, (method, path) => method === 'GET' && path.startsWith('/api/migrations?limit=7'));
    try {
      const listed = runOpl(['migrate', '--url', proxy.url, '--list'], { OPL_OWNER_SECRET: GATE_OWNER_SECRET });
      expect((await listed.exited).code, listed.output()).toBe(0);
      expect(listed.output()).toContain('No migrations yet.');
      expect(proxy.cookies).toHaveLength(1);
      expect(await privateStatus(proxy.cookies[0]!)).toBe(401);

      const waiting = runOpl(['migrate', '--url', proxy.url, '--list', '--limit', '7'], { OPL_OWNER_SECRET: GATE_OWNER_SECRET });
      const deadline = Date.now() + 60_000;
      while (proxy.held.length === 0 && waiting.child.exitCode === null && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(proxy.held).toEqual(['GET /api/migrations?limit=7']);
      expect(await privateStatus(proxy.cookies[1]!)).toBe(200);
      waiting.child.kill('SIGINT');
      expect(await waiting.exited).toEqual({ code: 130, signal: null });
      expect(waiting.output()).toContain('opl migrate: interrupted');
      expect(await privateStatus(proxy.cookies[1]!)).toBe(401);
    } finally {
      await proxy.close();
    }
  });
});
