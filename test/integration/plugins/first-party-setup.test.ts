import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOpl } from '../support/engine-process.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

/**
 * A fresh checkout has no one's private key: `opl plugin setup` (run by `npm start`) generates the
 * local first-party key, trusts it, and builds, signs and publishes every plugin in plugins/.
 */
describe('first-party setup', () => {
  let root: string;
  let env: Record<string, string>;
  let app: TestApp | undefined;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'opl-first-party-'));
    await chmod(root, 0o755);
    env = { OPL_REGISTRY_DIR: join(root, 'registry'), OPL_PLUGIN_TRUST_FILE: join(root, 'trusted-keys.json'), OPL_LOG_LEVEL: 'silent' };
  });

  afterAll(async () => {
    await app?.close();
    await rm(root, { recursive: true, force: true });
  });

  it('publishes every first-party plugin signed with a trusted local key, and is repeatable', { timeout: 120_000 }, async () => {
    for (let run = 0; run < 2; run += 1) {
      const setup = runOpl(['plugin', 'setup'], env);
      const { code } = await setup.exited;
      expect(code, setup.output()).toBe(0);
      expect(setup.output()).toMatch(/Published \d+ first-party plugin\(s\).*opl\.format\.txt@/);
    }
    const trust = JSON.parse(await readFile(env.OPL_PLUGIN_TRUST_FILE!, 'utf8')) as { keys: Array<{ key_id: string }> };
    expect(trust.keys.map((key) => key.key_id)).toEqual(['opl-first-party']);
  });

  it('gives the engine a working registry: the first-party plugins load and run', { timeout: 60_000 }, async () => {
    app = await startTestApp({ OPL_REGISTRY_DIR: env.OPL_REGISTRY_DIR!, OPL_PLUGIN_TRUST_FILE: env.OPL_PLUGIN_TRUST_FILE! });
    const view = (await app.app.http!.inject({ method: 'GET', url: '/api/admin/plugins' })).json<{ loaded: Array<{ id: string; signed: boolean; publisher: { key_id: string } }>; refused: unknown[] }>();
    expect(view.refused).toEqual([]);
    expect(view.loaded).toContainEqual(expect.objectContaining({ id: 'opl.format.txt', signed: true, publisher: expect.objectContaining({ key_id: 'opl-first-party' }) }));
    const parsed = await app.app.services.plugins.host.call('opl.format.txt', 'parse', {
      bytes: new TextEncoder().encode('# my list\nDaft Punk - One More Time\nRöyksopp - Eple\n'),
      filename: 'road trip.txt',
    });
    expect(parsed.playlists).toHaveLength(1);
    expect(parsed.playlists[0]?.tracks.map((track) => `${track.artist} / ${track.title}`)).toEqual(['Daft Punk / One More Time', 'Röyksopp / Eple']);
  });
});
