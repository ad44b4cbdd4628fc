// `npm run sdk:pack`: builds the npm package of the SDK and prints the path of its .tgz.
//
// In this repository the SDK runs from its TypeScript sources (Node 24 strips the types). Node
// refuses to strip types under node_modules, so the published package ships JavaScript and
// declarations compiled by tsc (relative `.ts` imports rewritten to `.js`) instead of src/.
//
//   node plugin-sdk/scripts/pack.ts [--out-dir <dir>]     (default: plugin-sdk/.pack)
//
// <out-dir>/package/ is the staged package (dist/, bin/, templates/, schema/, README.md and a
// generated package.json); <out-dir>/<name>-<version>.tgz is what `npm pack` makes of it.
import { spawnSync } from 'node:child_process';
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { delimiter, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const SDK_DIR = fileURLToPath(new URL('..', import.meta.url));
const TSCONFIG = join(SDK_DIR, 'tsconfig.build.json');

/** Package entry → module in src/ (without the extension). */
const ENTRIES: Readonly<Record<string, string>> = {
  '.': 'index',
  './schemas': 'schemas',
  './sandbox': 'sandbox/index',
  './tools': 'tools/index',
  './testing': 'testing/index',
  './cli': 'cli/index',
};

/** Copied as they are; `dist` is compiled. */
const COPIED = ['README.md', 'bin', 'templates', 'schema'];

/** Fields of plugin-sdk/package.json the published package keeps unchanged. */
const KEPT_FIELDS = ['name', 'version', 'description', 'type', 'license', 'keywords', 'homepage', 'repository', 'author', 'engines', 'bin', 'dependencies', 'peerDependencies', 'optionalDependencies'];

interface SdkPackageJson {
  name: string;
  version: string;
  exports: Record<string, string>;
  [field: string]: unknown;
}

function fail(message: string): never {
  process.stderr.write(`sdk:pack: ${message}\n`);
  process.exit(1);
}

/** Children run on this Node: its directory first on PATH, so `npm` (a `#!/usr/bin/env node` script) does too. */
function childEnv(): NodeJS.ProcessEnv {
  return { ...process.env, PATH: [dirname(process.execPath), process.env.PATH ?? ''].join(delimiter) };
}

function run(command: string, args: string[], cwd: string): string {
  const result = spawnSync(command, args, { cwd, env: childEnv(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], shell: process.platform === 'win32' });
  if (result.error) fail(`could not run ${command}: ${result.error.message}`);
  if (result.status !== 0) fail(`${command} ${args.join(' ')} failed (exit ${result.status}):\n${result.stdout}`);
  return result.stdout;
}

/** The generated package.json: the workspace's, with `exports` pointing at the compiled files. */
function publishedPackageJson(source: SdkPackageJson): Record<string, unknown> {
  const declared = Object.keys(source.exports).sort();
  const known = Object.keys(ENTRIES).sort();
  if (declared.join() !== known.join()) fail(`plugin-sdk/package.json exports ${declared.join(', ')}, but the pack script knows ${known.join(', ')}; update ENTRIES in scripts/pack.ts.`);
  for (const [entry, module] of Object.entries(ENTRIES)) {
    if (source.exports[entry] !== `./src/${module}.ts`) fail(`plugin-sdk/package.json maps "${entry}" to ${source.exports[entry]}, not ./src/${module}.ts; update ENTRIES in scripts/pack.ts.`);
  }
  const kept = Object.fromEntries(KEPT_FIELDS.filter((field) => source[field] !== undefined).map((field) => [field, source[field]]));
  const exports = Object.fromEntries(Object.entries(ENTRIES).map(([entry, module]) => [entry, { types: `./dist/${module}.d.ts`, default: `./dist/${module}.js` }]));
  return { ...kept, types: './dist/index.d.ts', exports, files: ['dist', ...COPIED] };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { 'out-dir': { type: 'string' } } });
  const outDir = resolve(values['out-dir'] ?? join(SDK_DIR, '.pack'));
  const stage = join(outDir, 'package');
  const source = JSON.parse(await readFile(join(SDK_DIR, 'package.json'), 'utf8')) as SdkPackageJson;

  // The output directory is replaced; refuse one that holds anything but a previous pack's output.
  const previous = await readdir(outDir).catch(() => []);
  const foreign = previous.filter((name) => name !== 'package' && !name.endsWith('.tgz'));
  if (foreign.length > 0) fail(`${outDir} holds other files (${foreign.slice(0, 3).join(', ')}); choose an empty or new --out-dir.`);
  await rm(outDir, { recursive: true, force: true });
  await mkdir(stage, { recursive: true });

  // tsc of the repository's TypeScript, run on this Node.
  const tsc = createRequire(join(SDK_DIR, 'package.json')).resolve('typescript/bin/tsc');
  run(process.execPath, [tsc, '-p', TSCONFIG, '--outDir', join(stage, 'dist')], SDK_DIR);

  for (const name of COPIED) await cp(join(SDK_DIR, name), join(stage, name), { recursive: true });
  await writeFile(join(stage, 'package.json'), `${JSON.stringify(publishedPackageJson(source), null, 2)}\n`);

  const packed = JSON.parse(run('npm', ['pack', '--json', '--ignore-scripts', '--loglevel=error', '--pack-destination', outDir], stage)) as { filename: string; entryCount: number }[];
  const tarball = join(outDir, packed[0]!.filename);
  process.stderr.write(`sdk:pack: ${source.name}@${source.version}, ${packed[0]!.entryCount} files (staged in ${relative(process.cwd(), stage) || '.'})\n`);
  process.stdout.write(`${tarball}\n`);
}

await main();
