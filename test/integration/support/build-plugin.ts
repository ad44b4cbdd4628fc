import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runPluginCli } from '@opl/plugin-sdk/cli';
import { manifestSchema } from '@opl/plugin-sdk/schemas';
import type { PluginBundle } from '../../../core/plugin-host/index.ts';

/**
 * Builds a plugin project with the SDK's own `opl-plugin build` (exactly what a publisher runs)
 * and returns the bundle as the plugin host loads it. Unsigned: tests that exercise the sandbox
 * directly do not go through the registry's trust policy.
 */
export async function buildPluginBundle(projectDir: string): Promise<PluginBundle> {
  const outDir = await mkdtemp(join(tmpdir(), 'opl-build-'));
  let output = '';
  const io = { stdout: { write: (text: string) => (output += text) }, stderr: { write: (text: string) => (output += text) }, cwd: process.cwd() };
  try {
    const code = await runPluginCli(['build', projectDir, '--out', outDir], io);
    if (code !== 0) throw new Error(`opl-plugin build ${projectDir} failed (exit ${code}):\n${output}`);
    const manifest = manifestSchema.parse(JSON.parse(await readFile(join(outDir, 'manifest.json'), 'utf8')));
    return { manifest, code: await readFile(join(outDir, manifest.entry), 'utf8') };
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}
