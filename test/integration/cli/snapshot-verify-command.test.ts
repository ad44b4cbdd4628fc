import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import nacl from 'tweetnacl';
import { SnapshotArchiveWriter, signingKeyFromSecret, type SnapshotSigningKey } from '../../../core/services/snapshots/archive/index.ts';
import { craftZip } from '../../support/zip-crafter.ts';
import { entriesOf, track, validParts } from '../../unit/core/snapshots/snapshot-parts.ts';

/**
 * `opl snapshot verify <file>` as a user runs it: a separate process with no engine and no
 * database anywhere (its data directory stays empty), on an archive made elsewhere.
 */

const MAIN = fileURLToPath(new URL('../../../core/cli/main.ts', import.meta.url));

function opl(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('OPL_')));
  return new Promise((resolve) => {
    execFile(process.execPath, ['--no-node-snapshot', MAIN, ...args], { env: { ...clean, ...env } }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('opl snapshot verify', () => {
  let root: string;
  let dataDir: string;
  let good: string;
  let signed: string;
  let signer: SnapshotSigningKey;
  let env: Record<string, string>;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'opl-snapshot-cli-'));
    dataDir = join(root, 'data');
    await mkdir(dataDir);
    env = { OPL_DATA_DIR: dataDir };
    good = join(root, 'library.zip');
    signed = join(root, 'signed.zip');
    signer = signingKeyFromSecret(nacl.sign.keyPair().secretKey);
    const plain = await SnapshotArchiveWriter.start({ path: signed, snapshotId: randomUUID(), libraryId: randomUUID(), schemaBaseUrl: 'https://open-playlist.org/schemas', startedAt: new Date(), sources: [{ source_id: 's1', provider: 'tidal', label: 'TIDAL (Sam)' }], signingKey: signer });
    async function* one() {
      yield await Promise.resolve(track(1));
    }
    await plain.addCollection({ sourceId: 's1', kind: 'playlist', sourceCollectionId: 'p1', name: 'Road trip', playlist: null, items: one(), describeFailure: () => ({ code: 'read_failed', message: 'x' }) });
    await plain.finish(new Date());
    const writer = await SnapshotArchiveWriter.start({
      path: good,
      snapshotId: randomUUID(),
      libraryId: randomUUID(),
      schemaBaseUrl: 'https://open-playlist.org/schemas',
      startedAt: new Date(),
      sources: [{ source_id: 's1', provider: 'tidal', label: 'TIDAL (Sam)' }],
    });
    async function* tracks() {
      for (let index = 0; index < 30; index += 1) yield await Promise.resolve(track(index));
    }
    // eslint-disable-next-line require-yield -- a read that fails before its first item
    async function* gone(): AsyncGenerator<never> {
      await Promise.resolve();
      throw new Error('The playlist is no longer there.');
    }
    const describeFailure = (error: unknown) => ({ code: 'not_found', message: (error as Error).message });
    await writer.addCollection({ sourceId: 's1', kind: 'playlist', sourceCollectionId: 'p1', name: 'Road trip', playlist: null, items: tracks(), describeFailure });
    await writer.addCollection({ sourceId: 's1', kind: 'playlist', sourceCollectionId: 'p2', name: 'Gone', playlist: null, items: gone(), describeFailure });
    await writer.finish(new Date());
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('verifies an archive offline and says what it holds, partial failures included, without starting anything', async () => {
    const result = await opl(['snapshot', 'verify', good], env);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('verified: ');
    expect(result.stdout).toContain('2 collections, 30 items');
    expect(result.stdout).toContain('collections/0002.jsonl (p2): not_found — The playlist is no longer there.');
    // No embedded PostgreSQL, no key file, nothing: the data directory is as it was.
    expect(await readdir(dataDir)).toEqual([]);
  });

  it('prints JSON with --json', async () => {
    const result = await opl(['snapshot', 'verify', '--json', good], env);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ verified: true, counts: { collections: 2, items: 30, failed_collections: 1 } });
  });

  it('refuses a hostile archive with its reason code and exit code 1', async () => {
    const parts = validParts();
    const bad = join(root, 'bad.zip');
    await writeFile(bad, craftZip(entriesOf(parts).map((entry) => (entry.name === 'collections/0001.jsonl' ? { ...entry, name: '../../evil.jsonl' } : entry))));
    const result = await opl(['snapshot', 'verify', bad], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^opl snapshot verify: refused \(path_traversal\): /);
    const json = await opl(['snapshot', 'verify', '--json', bad], env);
    expect(JSON.parse(json.stdout)).toMatchObject({ verified: false, reason: 'path_traversal' });
  });

  it('checks a signature when there is one, and with --public-key requires the archive to be signed by that key', async () => {
    const open = await opl(['snapshot', 'verify', signed], env);
    expect(open.code).toBe(0);
    expect(open.stdout).toContain(`signed by ${signer.keyId}`);
    const keyFile = join(root, 'instance-key.json');
    // The answer of GET /api/snapshots/signing-key, saved to a file, names the key as well as the key itself.
    await writeFile(keyFile, JSON.stringify({ signing: true, key: { algorithm: 'ed25519', key_id: signer.keyId, public_key: signer.publicKey } }));
    for (const key of [signer.publicKey, keyFile]) {
      const trusted = await opl(['snapshot', 'verify', '--json', '--public-key', key, signed], env);
      expect(trusted.code).toBe(0);
      expect(JSON.parse(trusted.stdout)).toMatchObject({ verified: true, signature: { key_id: signer.keyId, trusted: true } });
    }
    const other = Buffer.from(nacl.sign.keyPair().publicKey).toString('base64');
    const untrusted = await opl(['snapshot', 'verify', '--public-key', other, signed], env);
    expect(untrusted.code).toBe(1);
    expect(untrusted.stderr).toContain('refused (untrusted_signature_key)');
    const unsigned = await opl(['snapshot', 'verify', '--public-key', signer.publicKey, good], env);
    expect(unsigned.code).toBe(1);
    expect(unsigned.stderr).toContain('refused (signature_required)');
    expect((await opl(['snapshot', 'verify', '--public-key', 'not-a-key', signed], env)).code).toBe(64);
  });

  it('applies the OPL_SNAPSHOT_MAX_* caps', async () => {
    const result = await opl(['snapshot', 'verify', good], { ...env, OPL_SNAPSHOT_MAX_ARCHIVE_BYTES: '1024' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('refused (archive_too_large)');
  });

  it('answers usage errors with 64 and a missing file with 1', async () => {
    expect((await opl(['snapshot', 'verify'], env)).code).toBe(64);
    expect((await opl(['snapshot', 'frobnicate'], env)).code).toBe(64);
    const missing = await opl(['snapshot', 'verify', join(root, 'nope.zip')], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('(ENOENT)');
  });
});
