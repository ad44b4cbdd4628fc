import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runOpl } from '../support/engine-process.ts';

/** A temporary registry with the signed first-party plugins (`opl plugin setup`), as env for startTestApp. */
export async function firstPartyPlugins(): Promise<{ env: Record<string, string>; remove(): Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), 'opl-imports-plugins-'));
  await chmod(root, 0o755);
  const env = { OPL_REGISTRY_DIR: join(root, 'registry'), OPL_PLUGIN_TRUST_FILE: join(root, 'trusted-keys.json') };
  const run = runOpl(['plugin', 'setup'], { ...env, OPL_LOG_LEVEL: 'silent' });
  const { code } = await run.exited;
  if (code !== 0) throw new Error(`opl plugin setup failed:\n${run.output()}`);
  return { env, remove: () => rm(root, { recursive: true, force: true }) };
}
