import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../support/engine-process.ts';

/**
 * `opl export` reads the engine's Content-Disposition as untrusted: whatever `filename*` says, the
 * file it writes has a name that cannot disguise it (no bidirectional override, no C1 control or
 * line separator) and that a file system takes (at most 200 UTF-8 bytes, extension kept), so the
 * download and its `.<name>.<pid>.partial` beside it never fail with ENAMETOOLONG.
 */

const cases: [sent: string, saved: string][] = [
  ['\u202egnp.exe.csv', 'gnp.exe.csv'],
  ['\u009b31mRed.csv', '_31mRed.csv'],
  ['a\u2028b\u0085c.csv', 'a_b_c.csv'],
  [`${'夜'.repeat(150)}.csv`, `${'夜'.repeat(65)}.csv`],
  [`${'😀'.repeat(150)}.csv`, `${'😀'.repeat(49)}.csv`],
  [`${'é'.repeat(99)}😀${'x'.repeat(50)}.m3u8`, `${'é'.repeat(97)}.m3u8`],
];

let server: Server;
let url = '';
let work = '';
let next = 0;

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === '/api/me') {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ owner_id: 'local', session: { required: false, authenticated: false } }));
      return;
    }
    const [sent] = cases[next++ % cases.length]!;
    const body = '"schema_version"\n"1"\n';
    response.writeHead(200, {
      'content-type': 'text/csv; charset=utf-8',
      'content-length': String(Buffer.byteLength(body)),
      'content-disposition': `attachment; filename="x.csv"; filename*=UTF-8''${encodeURIComponent(sent)}`,
      'x-open-playlist-warning-count': '0',
    });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  work = await mkdtemp(join(tmpdir(), 'opl-export-cli-names-'));
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  if (work) await rm(work, { recursive: true, force: true });
});

async function opl(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('OPL_')));
  const child = spawn(process.execPath, ['--no-node-snapshot', CLI, 'export', '--url', url, ...args], { cwd: work, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { code, stdout, stderr };
}

describe('opl export against Content-Disposition names that disguise the file or overflow a file name', () => {
  it('writes each download under a plain name of at most 200 bytes, its extension kept', async () => {
    for (const [sent, saved] of cases) {
      const result = await opl(['--source', 'import:00000000-0000-4000-8000-000000000000', '--format', 'csv', '-o', `${work}/`]);
      expect(result.code, `${JSON.stringify(sent)}: ${result.stderr}`).toBe(0);
      // Printed as written: nothing in the path can drive the terminal.
      expect(result.stdout, JSON.stringify(sent)).toBe(`${join(work, saved)}\n`);
    }
    const files = await readdir(work);
    expect(files.sort()).toEqual(cases.map(([, saved]) => saved).sort());
    for (const file of files) expect(Buffer.byteLength(file), file).toBeLessThanOrEqual(200);
  }, 60_000);
});
