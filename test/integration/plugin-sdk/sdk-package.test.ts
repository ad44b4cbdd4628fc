import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The SDK as a third party gets it: `npm run sdk:pack` builds the npm package (compiled
 * JavaScript + declarations), it is installed into a project outside this repository, and only
 * the installed package is used from there on — its `opl-plugin` executable and its entries.
 * One pack and one install for the whole file.
 */

const TIMEOUT = 240_000;
const PACK_SCRIPT = fileURLToPath(new URL('../../../plugin-sdk/scripts/pack.ts', import.meta.url));
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** A child's environment: this Node (24) first on PATH, so `npm` and its scripts run on it too. */
function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: [dirname(process.execPath), process.env.PATH ?? ''].join(delimiter) };
  // A machine's npm config may point node-gyp at another Node's headers (see core/bootstrap/runtime.mjs).
  delete env.npm_config_nodedir;
  delete env.NPM_CONFIG_NODEDIR;
  return env;
}

function run(command: string, args: string[], cwd: string, timeout = 120_000): Promise<Run> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, env: childEnv(), timeout, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

function described(result: Run): string {
  return `exit ${result.code}\nstdout:\n${result.stdout}\nstderr:\n${result.stderr}`;
}

describe('the published @opl/plugin-sdk package, installed outside the repository', () => {
  let work: string;
  let project: string;
  let installed: string;
  const timings: string[] = [];

  /** Runs the INSTALLED `opl-plugin` (node_modules/.bin) on this Node, in the project. */
  async function oplPlugin(...args: string[]): Promise<Run> {
    const result = await run(process.execPath, [join(project, 'node_modules', '.bin', 'opl-plugin'), ...args], project);
    expect(result.code, `opl-plugin ${args.join(' ')}: ${described(result)}`).toBe(0);
    return result;
  }

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'opl-sdk-package-'));
    await chmod(work, 0o755);
    project = join(work, 'project');
    await mkdir(project, { mode: 0o755 });
    await chmod(project, 0o755);

    let started = Date.now();
    const packed = await run(process.execPath, [PACK_SCRIPT, '--out-dir', join(work, 'pack')], work);
    expect(packed.code, described(packed)).toBe(0);
    const tarball = packed.stdout.trim().split('\n').pop()!;
    expect(tarball).toMatch(/opl-plugin-sdk-\d+\.\d+\.\d+.*\.tgz$/);
    expect(existsSync(tarball)).toBe(true);
    timings.push(`pack ${Date.now() - started} ms`);

    started = Date.now();
    await writeFile(join(project, 'package.json'), `${JSON.stringify({ name: 'third-party-plugins', private: true, type: 'module' }, null, 2)}\n`);
    const install = await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', tarball], project, 180_000);
    expect(install.code, described(install)).toBe(0);
    timings.push(`install ${Date.now() - started} ms`);
    installed = join(project, 'node_modules', '@opl', 'plugin-sdk');
  }, TIMEOUT);

  afterAll(async () => {
    if (timings.length > 0) console.warn(`sdk-package: ${timings.join(', ')}`);
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('ships compiled JavaScript and declarations, not the TypeScript sources', async () => {
    expect(existsSync(join(installed, 'src'))).toBe(false);
    for (const file of ['dist/index.js', 'dist/index.d.ts', 'dist/cli/main.js', 'bin/opl-plugin.mjs', 'templates/provider/plugin.json', 'schema/manifest.schema.json', 'README.md']) {
      expect(existsSync(join(installed, file)), file).toBe(true);
    }
    const dist = await readdir(join(installed, 'dist'), { recursive: true });
    expect(dist.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))).toEqual([]);
    // Compiled imports point at .js files (Node would refuse to strip types under node_modules).
    const cli = await readFile(join(installed, 'dist', 'cli', 'run-plugin-cli.js'), 'utf8');
    expect(cli).not.toMatch(/from ["'][^"']+\.ts["']|import\(["'][^"']+\.ts["']\)/);
  });

  it('every entry resolves to JavaScript and loads from a plain .mjs file', async () => {
    const probe = join(project, 'probe.mjs');
    await writeFile(
      probe,
      [
        "const entries = ['@opl/plugin-sdk', '@opl/plugin-sdk/schemas', '@opl/plugin-sdk/sandbox', '@opl/plugin-sdk/tools', '@opl/plugin-sdk/cli'];",
        'const resolved = {};',
        'for (const entry of entries) {',
        '  resolved[entry] = import.meta.resolve(entry);',
        '  await import(entry);',
        '}',
        "const { canonicalJson } = await import('@opl/plugin-sdk/tools');",
        "const { definePlugin } = await import('@opl/plugin-sdk');",
        "const { manifestSchema } = await import('@opl/plugin-sdk/schemas');",
        "const { runPluginCli } = await import('@opl/plugin-sdk/cli');",
        'console.log(JSON.stringify({ resolved, canonical: canonicalJson({ b: 1, a: [2, { d: 3, c: 4 }] }), types: [typeof definePlugin, typeof manifestSchema.parse, typeof runPluginCli] }));',
        '',
      ].join('\n'),
    );
    const result = await run(process.execPath, ['--no-node-snapshot', probe], project);
    expect(result.code, described(result)).toBe(0);
    const output = JSON.parse(result.stdout) as { resolved: Record<string, string>; canonical: string; types: string[] };
    for (const [entry, url] of Object.entries(output.resolved)) {
      expect(url, entry).toMatch(/\/node_modules\/@opl\/plugin-sdk\/dist\/.+\.js$/);
    }
    expect(Object.keys(output.resolved)).toHaveLength(5);
    expect(output.canonical).toBe('{"a":[2,{"c":4,"d":3}],"b":1}');
    expect(output.types).toEqual(['function', 'function', 'function']);
  });

  it('the installed opl-plugin creates, builds, signs, verifies and tests a provider plugin', async () => {
    const init = await oplPlugin('init', 'my-music', '--id', 'com.example.my-music', '--name', 'My Music', '--kind', 'provider', '--publisher', 'Example Ltd', '--key-id', 'example-2026');
    expect(init.stdout).toContain('Created the provider plugin com.example.my-music');
    const projectPackage = JSON.parse(await readFile(join(project, 'my-music', 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    const sdkVersion = (JSON.parse(await readFile(join(installed, 'package.json'), 'utf8')) as { version: string }).version;
    expect(projectPackage.devDependencies['@opl/plugin-sdk']).toBe(`^${sdkVersion}`);

    const build = await oplPlugin('build', 'my-music');
    expect(build.stdout).toContain('Built com.example.my-music@0.1.0');
    const bundle = join(project, 'my-music', 'dist');
    const manifest = JSON.parse(await readFile(join(bundle, 'manifest.json'), 'utf8')) as { files: Record<string, string> };
    expect(Object.keys(manifest.files)).toContain('plugin.js');
    const code = await readFile(join(bundle, 'plugin.js'), 'utf8');
    expect(code).toContain('https://api.example.com/v1');
    expect(code).not.toContain(work); // no builder paths in the signed file

    await oplPlugin('keygen', '--key-id', 'example-2026', '--publisher', 'Example Ltd', '--out', join('keys', 'example-2026.key.json'), '--test-only');
    const sign = await oplPlugin('sign', bundle, '--key', join('keys', 'example-2026.key.json'));
    expect(sign.stdout).toContain('Signed com.example.my-music@0.1.0');
    expect((await readdir(bundle)).sort()).toEqual(expect.arrayContaining(['manifest.json', 'plugin.js', 'signature.json']));

    await oplPlugin('trust', 'add', join('keys', 'example-2026.pub.json'), '--trust', 'trust.json', '--test-only');
    const verify = await oplPlugin('verify', bundle, '--trust', 'trust.json');
    expect(verify.stdout).toMatch(/^OK com\.example\.my-music@0\.1\.0: signed by TEST-ONLY key "example-2026"/);

    // The template's fixture case, in the real isolated-vm sandbox of the installed package.
    const test = await oplPlugin('test', 'my-music');
    expect(test.stdout).toMatch(/PASS\s+listPlaylists/);
    expect(test.stdout).toMatch(/\b1 passed, 0 failed\b/);
  }, TIMEOUT);

  it("the package's declarations type the plugin project and the tool entries", async () => {
    // The generated project, with its own strict, ECMAScript-only tsconfig.
    const plugin = await run(process.execPath, [TSC, '-p', join(project, 'my-music', 'tsconfig.json')], project);
    expect(plugin.code, described(plugin)).toBe(0);

    // The declarations carry real types (an unresolved module would make everything `any`).
    await writeFile(
      join(project, 'types-probe.ts'),
      [
        "import { canonicalJson, verifyBundle } from '@opl/plugin-sdk/tools';",
        "import { manifestSchema } from '@opl/plugin-sdk/schemas';",
        "import { definePlugin } from '@opl/plugin-sdk';",
        'export const text: string = canonicalJson({});',
        'export const wrong: number = canonicalJson({});',
        'export const checks = [verifyBundle, manifestSchema, definePlugin];',
        '',
      ].join('\n'),
    );
    const options = { compilerOptions: { target: 'es2024', module: 'nodenext', strict: true, noEmit: true, skipLibCheck: true, types: [] }, files: ['types-probe.ts'] };
    await writeFile(join(project, 'tsconfig.json'), JSON.stringify(options));
    const probe = await run(process.execPath, [TSC, '-p', join(project, 'tsconfig.json')], project);
    const errors = probe.stdout.split('\n').filter((line) => /error TS\d+/.test(line));
    expect(errors, described(probe)).toHaveLength(1);
    expect(errors[0]).toMatch(/types-probe\.ts\(5,14\): error TS2322: Type 'string' is not assignable to type 'number'/);
  }, TIMEOUT);
});
