import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reconcileFiles } from '../../../core/services/snapshots/snapshot-files.ts';

/**
 * SIGKILL while a snapshot archive is being written (SPEC Snapshots rule 9): a real process writing
 * through the real writer is killed part-way. No archive appears under the final name — only the
 * temporary file — and the reconciliation of the next start removes it.
 */

const SCRIPT = fileURLToPath(new URL('./slow-snapshot.process.ts', import.meta.url));

describe('a snapshot writer killed part-way', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'opl-snapshot-crash-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('leaves no half archive visible, and the next start removes what it left', async () => {
    const id = '0b7a1c52-7f1e-4d4e-9a55-6f0b8a1d2c3e';
    const final = join(dir, `${id}.zip`);
    const child = spawn(process.execPath, ['--no-node-snapshot', SCRIPT, final], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('collection 3\n')) resolve();
      });
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.on('exit', () => reject(new Error(`the writer exited early:\n${output}`)));
    });
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    expect(await readdir(dir)).toEqual([`${id}.zip.partial`]);
    expect((await stat(join(dir, `${id}.zip.partial`))).size).toBeGreaterThan(0);
    // The next start: no row runs for it (its job was failed as stale), so its file goes.
    const result = await reconcileFiles(dir, [{ id, status: 'failed', archive_path: null }]);
    expect(result.removed).toEqual([`${id}.zip.partial`]);
    expect(await readdir(dir)).toEqual([]);
  });
});
