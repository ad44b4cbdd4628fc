import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PluginToolError, readJsonFile, sha256Hex, utf8, writeBundle } from '../tools/index.ts';
import { bundlePluginCode } from './bundle-plugin-code.ts';
import { parseCommandArgs, pathFrom, stringOption } from './cli-args.ts';
import { EXIT_OK, type PluginCliIo } from './cli-io.ts';

export const BUILD_USAGE = 'opl-plugin build [project-dir] [--out <dir>] [--entry <file>]   (defaults: ., dist, src/index.ts)';

/**
 * Builds a plugin project into an unsigned bundle: plugin.json (the author's manifest) plus the
 * bundled entry, and the project's README.md when present, each pinned by sha256.
 */
export async function buildCommand(args: readonly string[], io: PluginCliIo): Promise<number> {
  const parsed = parseCommandArgs(args, { out: { type: 'string' }, entry: { type: 'string' } }, 1);
  const projectDir = pathFrom(io.cwd, parsed.positionals[0] ?? '.');
  const manifestPath = join(projectDir, 'plugin.json');
  const manifestSource = await readJsonFile(manifestPath, 'The plugin manifest');
  if (manifestSource === null) throw new PluginToolError(`${manifestPath} does not exist; create a project with \`opl-plugin init\` or run build in the project directory.`);
  const entry = pathFrom(projectDir, stringOption(parsed, 'entry') ?? join('src', 'index.ts'));
  if (!existsSync(entry)) throw new PluginToolError(`The plugin entry ${entry} does not exist.`);
  const outDir = pathFrom(projectDir, stringOption(parsed, 'out') ?? 'dist');

  const bundled = await bundlePluginCode({ projectDir, entry, stderr: io.stderr });
  const entryName = (manifestSource as { entry?: unknown }).entry;
  const files: Record<string, Uint8Array> = { [typeof entryName === 'string' ? entryName : 'plugin.js']: utf8(bundled.code) };
  const readme = join(projectDir, 'README.md');
  if (existsSync(readme)) files['README.md'] = new Uint8Array(await readFile(readme));
  const manifest = await writeBundle({ manifestSource, files, outDir });

  io.stdout.write(`Built ${manifest.id}@${manifest.version} (${manifest.kind}) into ${outDir} — unsigned; sign it with: opl-plugin sign ${outDir} --key <secret.json>\n`);
  for (const [path, bytes] of Object.entries(files)) io.stdout.write(`  ${path}\t${bytes.length} bytes\tsha256 ${sha256Hex(bytes)}\n`);
  return EXIT_OK;
}
