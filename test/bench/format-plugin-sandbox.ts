import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runPluginCli } from '@opl/plugin-sdk/cli';
import { createSandbox, type Sandbox } from '@opl/plugin-sdk/sandbox';
import { manifestSchema } from '@opl/plugin-sdk/schemas';

/** The first-party format plugins' sources. */
export const FORMATS_DIR = fileURLToPath(new URL('../../plugins/formats/', import.meta.url));

/**
 * A first-party format plugin built from its source into `buildRoot/<name>` and loaded into a
 * real sandbox in this process, with the room `opl convert` gives one (1 GiB, no practical time
 * limit): the benchmarks' way to time a parser without the engine around it.
 */
export async function loadFormatPlugin(name: string, buildRoot: string): Promise<Sandbox> {
  const out = join(buildRoot, name);
  const quiet = { stdout: { write: () => true }, stderr: { write: () => true }, cwd: buildRoot };
  const code = await runPluginCli(['build', join(FORMATS_DIR, name), '--out', out], quiet);
  if (code !== 0) throw new Error(`building the ${name} plugin failed`);
  const manifest = manifestSchema.parse(JSON.parse(await readFile(join(out, 'manifest.json'), 'utf8')));
  return createSandbox({
    manifest,
    code: await readFile(join(out, manifest.entry), 'utf8'),
    limits: { memoryMb: 1024, callTimeoutMs: 600_000, cpuTimeMs: 600_000 },
    log: () => undefined,
  });
}
