import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLUGIN_BIN, runCli, runCliProcess } from './run-cli.ts';

const readJson = async (path: string): Promise<unknown> => JSON.parse(await readFile(path, 'utf8')) as unknown;

/**
 * The publisher's path end to end, with the real executable: init → build → keygen → sign →
 * verify → publish, then the refusals a user meets. One Vite build per plugin kind.
 */
describe('opl-plugin CLI', () => {
  let work: string;
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'opl-plugin-cli-'));
  });
  afterAll(() => rm(work, { recursive: true, force: true }));

  it('creates, builds, signs, verifies and publishes a provider plugin', async () => {
    const init = await runCliProcess(['init', 'demo', '--id', 'com.example.demo', '--name', 'Demo "Music"', '--kind', 'provider', '--publisher', 'Example Ltd', '--key-id', 'example-2026'], work);
    expect(init).toMatchObject({ code: 0 });
    for (const file of ['plugin.json', 'src/index.ts', 'README.md', 'fixtures/list-playlists.json', 'package.json', 'tsconfig.json', '.gitignore']) {
      expect(existsSync(join(work, 'demo', file)), file).toBe(true);
    }
    expect(await readJson(join(work, 'demo', 'plugin.json'))).toMatchObject({ id: 'com.example.demo', name: 'Demo "Music"', kind: 'provider', publisher: { name: 'Example Ltd', key_id: 'example-2026' }, provider: { name: 'demo' } });

    const build = await runCliProcess(['build', 'demo'], work);
    expect(build.stderr).toBe('');
    expect(build).toMatchObject({ code: 0 });
    expect(build.stdout).toContain('Built com.example.demo@0.1.0 (provider)');
    const code = await readFile(join(work, 'demo', 'dist', 'plugin.js'), 'utf8');
    expect(code).not.toMatch(/^\s*import\s/m);
    expect(code).not.toContain(work); // no builder paths inside a signed file
    const manifest = (await readJson(join(work, 'demo', 'dist', 'manifest.json'))) as { files: Record<string, string> };
    expect(Object.keys(manifest.files).sort()).toEqual(['README.md', 'plugin.js']);

    const keygen = await runCliProcess(['keygen', '--key-id', 'example-2026', '--publisher', 'Example Ltd', '--out', 'keys/example.key.json'], work);
    expect(keygen).toMatchObject({ code: 0 });
    expect((await stat(join(work, 'keys', 'example.key.json'))).mode & 0o777).toBe(0o600);
    expect(existsSync(join(work, 'keys', 'example.pub.json'))).toBe(true);

    expect(await runCliProcess(['sign', 'demo/dist', '--key', 'keys/example.key.json'], work)).toMatchObject({ code: 0 });

    const untrusted = await runCliProcess(['verify', 'demo/dist', '--trust', 'trust.json'], work);
    expect(untrusted.code).toBe(1);
    expect(untrusted.stderr).toContain('The trust store');
    expect(await runCliProcess(['trust', 'add', 'keys/example.pub.json', '--trust', 'trust.json'], work)).toMatchObject({ code: 0 });
    const verified = await runCliProcess(['verify', 'demo/dist', '--trust', 'trust.json'], work);
    expect(verified).toMatchObject({ code: 0, stderr: '' });
    expect(verified.stdout).toBe('OK com.example.demo@0.1.0: signed by key "example-2026" (Example Ltd); 2 files match the manifest.\n');

    const publish = await runCliProcess(['publish', 'demo/dist', '--registry', 'registry', '--key', 'keys/example.pub.json'], work);
    expect(publish).toMatchObject({ code: 0 });
    expect(await readJson(join(work, 'registry', 'index.json'))).toEqual({ registry_version: 1, plugins: { 'com.example.demo': { versions: ['0.1.0'] } } });
    expect(existsSync(join(work, 'registry', 'keys', 'example-2026.json'))).toBe(true);
    const fromRegistry = await runCliProcess(['verify', 'registry/plugins/com.example.demo/0.1.0', '--trust', 'trust.json', '--registry', 'registry', '--json'], work);
    expect(fromRegistry.code).toBe(0);
    expect(JSON.parse(fromRegistry.stdout)).toMatchObject({ ok: true, plugin: 'com.example.demo@0.1.0', signed: true, key_id: 'example-2026', test_only_key: false });
  });

  it('refuses the bundle after one byte of plugin.js changes, naming the reason, and publishing it too', async () => {
    const path = join(work, 'demo', 'dist', 'plugin.js');
    const original = await readFile(path);
    const tampered = Buffer.from(original);
    tampered[10] = tampered[10]! ^ 1;
    await writeFile(path, tampered);
    try {
      const verify = await runCliProcess(['verify', 'demo/dist', '--trust', 'trust.json'], work);
      expect(verify.code).toBe(1);
      expect(verify.stderr).toMatch(/^REFUSED \(modified_file\): plugin\.js was modified after the bundle was built/);
      const publish = await runCli(['publish', 'demo/dist', '--registry', 'registry2', '--key', 'keys/example.pub.json'], work);
      expect(publish.code).toBe(1);
      expect(publish.stderr).toContain('(modified_file) Refusing to publish com.example.demo@0.1.0');
      expect(existsSync(join(work, 'registry2', 'plugins'))).toBe(false);
    } finally {
      await writeFile(path, original);
    }
  });

  it('refuses an unsigned build unless --allow-unsigned, and marks it as unsigned', async () => {
    const signature = join(work, 'demo', 'dist', 'signature.json');
    const saved = await readFile(signature);
    await rm(signature);
    try {
      const refused = await runCli(['verify', 'demo/dist', '--trust', 'trust.json'], work);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/^REFUSED \(unsigned\): com\.example\.demo@0\.1\.0 has no signature\.json/);
      const allowed = await runCli(['verify', 'demo/dist', '--trust', 'trust.json', '--allow-unsigned'], work);
      expect(allowed.code).toBe(0);
      expect(allowed.stdout).toContain('UNSIGNED');
    } finally {
      await writeFile(signature, saved);
    }
  });

  it('refuses a key revoked in the trust store, and a key rotation endorsed by it', async () => {
    const trust = join(work, 'trust-revoked.json');
    expect((await runCli(['trust', 'add', 'keys/example.pub.json', '--trust', trust], work)).code).toBe(0);
    expect((await runCli(['trust', 'revoke', 'example-2026', '--trust', trust], work)).code).toBe(64);
    expect((await runCli(['trust', 'revoke', 'example-2026', '--reason', 'laptop lost', '--trust', trust], work)).code).toBe(0);
    const verify = await runCli(['verify', 'demo/dist', '--trust', trust], work);
    expect(verify.code).toBe(1);
    expect(verify.stderr).toContain('REFUSED (revoked_key)');
    expect(verify.stderr).toContain('laptop lost');
    const list = await runCli(['trust', 'list', '--trust', trust], work);
    expect(list.stdout).toMatch(/^example-2026\tExample Ltd\tREVOKED .*: laptop lost$/m);
  });

  it('rotates keys: a new key endorsed by the trusted old one verifies through the registry', async () => {
    expect((await runCli(['keygen', '--key-id', 'example-2027', '--publisher', 'Example Ltd', '--out', 'keys/next.key.json'], work)).code).toBe(0);
    const endorse = await runCli(['endorse', '--old', 'keys/example.key.json', '--new', 'keys/next.pub.json', '--registry', 'registry'], work);
    expect(endorse).toMatchObject({ code: 0, stderr: '' });
    expect(endorse.stdout).toContain('Registry key record of "example-2027": added.');
    expect(await readJson(join(work, 'registry', 'keys', 'example-2027.json'))).toMatchObject({ endorsement: { key_id: 'example-2026' } });

    const next = join(work, 'next');
    await runCli(['init', next, '--id', 'com.example.demo', '--name', 'Demo', '--kind', 'provider', '--key-id', 'example-2027'], work);
    // Reuse the built code rather than running Vite again: only the key differs.
    const { writeBundle } = await import('../../../plugin-sdk/src/tools/index.ts');
    const source = { ...(JSON.parse(await readFile(join(next, 'plugin.json'), 'utf8')) as object), version: '0.2.0' };
    await writeBundle({ manifestSource: source, files: { 'plugin.js': await readFile(join(work, 'demo', 'dist', 'plugin.js')) }, outDir: join(next, 'dist') });
    expect((await runCli(['sign', 'next/dist', '--key', 'keys/next.key.json'], work)).code).toBe(0);

    const withoutRegistry = await runCli(['verify', 'next/dist', '--trust', 'trust.json'], work);
    expect(withoutRegistry.code).toBe(1);
    expect(withoutRegistry.stderr).toContain('REFUSED (unknown_key)');
    const withRegistry = await runCli(['verify', 'next/dist', '--trust', 'trust.json', '--registry', 'registry'], work);
    expect(withRegistry).toMatchObject({ code: 0, stderr: '' });

    expect((await runCli(['publish', 'next/dist', '--registry', 'registry'], work)).code).toBe(0);
    expect(await readJson(join(work, 'registry', 'index.json'))).toMatchObject({ plugins: { 'com.example.demo': { versions: ['0.1.0', '0.2.0'] } } });

    // The publisher revokes the old key in the registry: the endorsed key loses its trust too.
    expect((await runCli(['revoke', 'example-2026', '--reason', 'rotated after a leak', '--registry', 'registry'], work)).code).toBe(0);
    const revoked = await runCli(['verify', 'next/dist', '--trust', 'trust.json', '--registry', 'registry'], work);
    expect(revoked.code).toBe(1);
    expect(revoked.stderr).toContain('REFUSED (revoked_key)');
    expect(revoked.stderr).toContain('rotated after a leak');
  });

  it('builds the format template into a bundle whose code parses the fixture', async () => {
    expect((await runCli(['init', 'fmt', '--id', 'com.example.tracklist', '--name', 'Track list', '--kind', 'format'], work)).code).toBe(0);
    const build = await runCli(['build', 'fmt', '--out', 'out'], work);
    expect(build).toMatchObject({ code: 0, stderr: '' });
    const module = (await import(join(work, 'fmt', 'out', 'plugin.js'))) as { default: { mark: string; kind: string; operations: Record<string, (...args: unknown[]) => unknown> } };
    expect(module.default).toMatchObject({ mark: 'opl.plugin/v1', kind: 'format' });
    const bytes = await readFile(join(work, 'fmt', 'fixtures', 'example.tracklist'));
    const parsed = module.default.operations.parse!({ bytes, filename: 'example.tracklist', media_type: null }, { decodeText: (b: Uint8Array) => new TextDecoder().decode(b) });
    const fixture = JSON.parse(await readFile(join(work, 'fmt', 'fixtures', 'parse-example.json'), 'utf8')) as { expect: unknown };
    expect(parsed).toMatchObject(fixture.expect as object);
  });

  it('refuses to build code that imports Node built-ins, with the reason', async () => {
    expect((await runCli(['init', 'bad', '--id', 'com.example.bad', '--name', 'Bad', '--kind', 'format'], work)).code).toBe(0);
    await writeFile(join(work, 'bad', 'src', 'index.ts'), "import { readFileSync } from 'node:fs';\nexport default { mark: 'opl.plugin/v1', kind: 'format', operations: { parse: () => readFileSync('/etc/passwd') } };\n");
    const build = await runCli(['build', 'bad'], work);
    expect(build.code).toBe(1);
    expect(build.stderr).toContain('"node:fs" is a Node.js built-in; plugins run in a sandbox without Node APIs');
    expect(existsSync(join(work, 'bad', 'dist'))).toBe(false);
  });

  it('answers usage errors with exit 64 and the command usage', async () => {
    const cases: string[][] = [[], ['frobnicate'], ['sign'], ['init', 'x', '--id', 'Bad Id', '--name', 'n', '--kind', 'provider'], ['init', 'x', '--id', 'com.example.x', '--name', 'n', '--kind', 'theme'], ['verify', 'dist', '--trust'], ['keygen', '--key-id', 'abc', '--bogus']];
    for (const args of cases) {
      const run = await runCli(args, work);
      expect(run.code, args.join(' ')).toBe(64);
      expect(run.stderr + run.stdout, args.join(' ')).toMatch(/Usage/);
    }
    const help = await runCli(['help', 'publish'], work);
    expect(help).toMatchObject({ code: 0, stdout: 'Usage:\n  opl-plugin publish <bundle-dir> --registry <dir> [--key <publisher.pub.json>]\n' });
  });

  it('keeps keys safe: never overwrites a secret key, refuses init into a non-empty directory', async () => {
    const again = await runCli(['keygen', '--key-id', 'example-2026', '--publisher', 'Example Ltd', '--out', 'keys/example.key.json'], work);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already exists; refusing to overwrite a key');
    const init = await runCli(['init', 'demo', '--id', 'com.example.demo', '--name', 'Demo', '--kind', 'provider'], work);
    expect(init.code).toBe(1);
    expect(init.stderr).toContain('is not empty');
  });

  it('runs through the bin script, which needs no flags from the user', async () => {
    const run = await runCliProcess(['help'], work, PLUGIN_BIN);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Usage: opl-plugin <command>');
  });
});
