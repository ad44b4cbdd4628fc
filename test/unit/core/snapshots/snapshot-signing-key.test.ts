import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSigningKey, signingKeyView } from '../../../../core/services/snapshots/snapshot-signing-key.ts';

/** The instance's snapshot signing key: made once, private, the same on every load, never shown. */
describe('snapshot signing key file', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'opl-signing-key-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('is made once with owner-only permissions, and every later load (or a racing one) gives the same key', async () => {
    const path = join(dir, 'keys', 'snapshot-signing.key');
    const [first, racing] = await Promise.all([loadSigningKey(path), loadSigningKey(path)]);
    expect(racing.publicKey).toBe(first.publicKey);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    const again = await loadSigningKey(path);
    expect(again.keyId).toBe(first.keyId);
    expect(first.keyId).toMatch(/^snap-[0-9a-f]{16}$/);
    // What may be shown holds the public half only.
    const secret = (JSON.parse(await readFile(path, 'utf8')) as { secret_key: string }).secret_key;
    const view = JSON.stringify(signingKeyView(first));
    expect(view).not.toContain(secret);
    expect(view).not.toContain(secret.slice(0, 40));
    expect(Object.keys(signingKeyView(first)).sort()).toEqual(['algorithm', 'key_id', 'public_key']);
  });

  it('refuses a damaged file without printing what it holds', async () => {
    const path = join(dir, 'snapshot-signing.key');
    await writeFile(path, JSON.stringify({ version: 1, algorithm: 'ed25519', secret_key: 'c2VjcmV0LWJ1dC1zaG9ydA==', created_at: 'x' }), { mode: 0o600 });
    const error = (await loadSigningKey(path).catch((caught: unknown) => caught)) as Error;
    expect(error.message).toContain('snapshot signing key file');
    expect(error.message).not.toContain('c2VjcmV0LWJ1dC1zaG9ydA');
  });
});
