import { spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, runOpl } from '../support/engine-process.ts';
import { firstPartyPlugins } from '../support/first-party-plugins.ts';

async function opl(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const run = runOpl(args, env);
  const { code } = await run.exited;
  return { code, output: run.output() };
}

/**
 * `opl convert` bound by file modes. Root reads and writes whatever the modes say, so when the
 * suite runs as root (CI does) the CLI runs with the two capabilities that let it (overriding
 * modes, searching any directory) dropped through util-linux's setpriv: still root, still able
 * to reach the project wherever it is cloned, but refused a file its modes refuse its owner.
 */
async function oplBoundByModes(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('OPL_')));
  const asRoot = process.getuid?.() === 0;
  const command = asRoot ? 'setpriv' : process.execPath;
  const prefix = asRoot ? ['--bounding-set=-dac_override,-dac_read_search', '--inh-caps=-all', '--', process.execPath] : [];
  const child = spawn(command, [...prefix, '--no-node-snapshot', CLI, ...args], { env: { ...inherited, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { code, output };
}

/** `opl convert`: offline, through the signed first-party format plugins in the sandbox. */
describe('opl convert', () => {
  let root: string;
  let env: Record<string, string>;
  let plugins: Awaited<ReturnType<typeof firstPartyPlugins>>;

  beforeAll(async () => {
    plugins = await firstPartyPlugins();
    root = await mkdtemp(join(tmpdir(), 'opl-convert-'));
    await chmod(root, 0o755);
    env = { ...plugins.env, OPL_LOG_LEVEL: 'silent' };
  }, 180_000);

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
    await plugins?.remove();
  });

  it('carries a list through TXT → CSV → JSON → M3U8 and back without losing tracks, order or duplicates', { timeout: 120_000 }, async () => {
    const source = join(root, 'Road Trip.txt');
    await writeFile(source, '# packed for the road\nDaft Punk - One More Time\nRöyksopp - Eple\nDaft Punk - One More Time\n宇多田ヒカル - First Love\n');
    const steps: Array<[string, string]> = [
      [source, 'csv'],
      [join(root, 'step-1.csv'), 'json'],
      [join(root, 'step-2.json'), 'm3u8'],
      [join(root, 'step-3.m3u8'), 'txt'],
    ];
    for (const [index, [input, format]] of steps.entries()) {
      const output = join(root, `step-${index + 1}.${format}`);
      const result = await opl(['convert', input, '--to', format, '-o', output], env);
      expect(result.code, result.output).toBe(0);
      expect(result.output).toMatch(/Wrote .*1 playlist\(s\), 4 track\(s\)/);
    }
    const csv = await readFile(join(root, 'step-1.csv'), 'utf8');
    expect(csv.startsWith('\uFEFF"schema_version"')).toBe(true);
    const final = await readFile(join(root, 'step-4.txt'), 'utf8');
    const titles = final.split('\n').filter((line) => line.includes('\t') && !line.startsWith('schema_version')).map((line) => line.split('\t').slice(13, 15).join(' / '));
    expect(titles).toEqual(['One More Time / Daft Punk', 'Eple / Röyksopp', 'One More Time / Daft Punk', 'First Love / 宇多田ヒカル']);
  });

  it('writes one file per playlist into a directory, named by the export rules', { timeout: 60_000 }, async () => {
    const bundle = {
      $schema: 'https://open-playlist.org/schemas/export/open-playlist-bundle-v1.json',
      schema_version: 1,
      source_provider: null,
      warnings: [],
      playlists: [
        { name: 'Mix', tracks: [{ title: 'A', artist: 'X' }] },
        { name: 'mix', tracks: [{ title: 'B', artist: 'Y' }] },
        { name: '../../etc/passwd', tracks: [] },
      ],
    };
    await writeFile(join(root, 'many.json'), JSON.stringify(bundle));
    const result = await opl(['convert', join(root, 'many.json'), '--to', 'xspf', '-o', join(root, 'out') + '/'], env);
    expect(result.code, result.output).toBe(0);
    expect((await readdir(join(root, 'out'))).sort()).toEqual(['Mix.xspf', 'etc passwd.xspf', 'mix-2.xspf']);
    const one = await opl(['convert', join(root, 'many.json'), '--to', 'xspf', '-o', join(root, 'one.xspf')], env);
    expect(one.code).toBe(1);
    expect(one.output).toMatch(/-o <directory>\//);
  });

  it('says which formats exist when asked for an unknown one, and refuses a hostile XML file clearly', { timeout: 60_000 }, async () => {
    const unknown = await opl(['convert', join(root, 'many.json'), '--to', 'wav'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.output).toMatch(/no format plugin writes "wav"\. Writable formats: .*csv.*xspf/);
    const bomb = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]><playlist version="1" xmlns="http://xspf.org/ns/0/"><trackList><track><title>&lol2;</title></track></trackList></playlist>`;
    await writeFile(join(root, 'bomb.xspf'), bomb);
    const refused = await opl(['convert', join(root, 'bomb.xspf'), '--to', 'csv', '-o', join(root, 'bomb.csv')], env);
    expect(refused.code).toBe(1);
    expect(refused.output).toMatch(/DOCTYPE/i);
    await expect(readFile(join(root, 'bomb.csv'))).rejects.toThrow();
  });

  it('never lets a file write to the terminal: control characters in issues are shown escaped', { timeout: 60_000 }, async () => {
    await writeFile(join(root, 'escapes.csv'), 'Track Name,Artist Name(s),Duration (ms)\nA,B,\u001b[31mred\u001b]0;owned\u0007\n');
    const converted = await opl(['convert', join(root, 'escapes.csv'), '--to', 'txt', '-o', join(root, 'escapes.txt')], env);
    expect(converted.code, converted.output).toBe(0);
    expect(converted.output).toContain('\\u001b[31mred');
    // No control character but the line breaks between messages.
    expect([...converted.output].filter((char) => char !== '\n' && (char < ' ' || char === '\u007f'))).toEqual([]);
  });

  it('says there is nothing to convert in a bundle with no playlists, without pointing at issues that are not there', { timeout: 60_000 }, async () => {
    await writeFile(join(root, 'none.json'), JSON.stringify({ schema_version: 1, playlists: [] }));
    const converted = await opl(['convert', join(root, 'none.json'), '--to', 'csv', '-o', join(root, 'none.csv')], env);
    expect(converted.code).toBe(1);
    expect(converted.output).toContain('holds no playlists: there is nothing to convert');
    expect(converted.output).not.toContain('see the issues above');
  });

  it('shows progress when asked', { timeout: 60_000 }, async () => {
    const lines = Array.from({ length: 3_000 }, (_, i) => `Artist ${i % 97} - Song ${i}`).join('\n');
    await writeFile(join(root, 'big.txt'), lines);
    const result = await opl(['convert', join(root, 'big.txt'), '--to', 'm3u8', '-o', join(root, 'big.m3u8'), '--progress'], env);
    expect(result.code, result.output).toBe(0);
    expect(result.output).toMatch(/converting txt → m3u8: 1\/1 playlist\(s\), 3000 track\(s\), [\d.]+ MiB written/);
  });

  it('leaves nothing behind when Ctrl-C interrupts the writing of a file', { timeout: 120_000 }, async () => {
    const input = join(root, 'long.txt');
    await writeFile(input, Array.from({ length: 150_000 }, (_, i) => `Artist ${i % 97} - Song ${i}`).join('\n'));
    const out = join(root, 'interrupted');
    await mkdir(out);
    const run = runOpl(['convert', input, '--to', 'xspf', '-o', join(out, 'long.xspf')], env);
    // The hidden temporary file appears once the parse is done and the writing has begun.
    const deadline = Date.now() + 100_000;
    while ((await readdir(out)).length === 0 && run.child.exitCode === null && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await readdir(out)).toEqual([expect.stringMatching(/^\.long\.xspf\.\d+\.partial$/)]);
    run.child.kill('SIGINT');
    expect(await run.exited).toEqual({ code: 130, signal: null });
    expect(run.output()).toContain(`opl convert: interrupted; ${join(out, 'long.xspf')} was not written.`);
    expect(await readdir(out)).toEqual([]);
  });

  describe('bad input and output paths: a sentence, exit 1, no stack trace, nothing left behind', () => {
    const noTrace = (output: string) => expect(output).not.toMatch(/\n\s+at |node:internal|Unhandled 'error' event/);
    let dir: string;

    beforeAll(async () => {
      dir = join(root, 'paths');
      await mkdir(dir);
      await writeFile(join(dir, 'list.txt'), 'Daft Punk - One More Time\nRöyksopp - Eple\n');
    });

    it('a missing input file, and a directory given as the input', { timeout: 60_000 }, async () => {
      const missing = await opl(['convert', join(dir, 'nope.txt'), '--to', 'csv'], env);
      expect(missing.code).toBe(1);
      expect(missing.output).toBe(`opl convert: ${join(dir, 'nope.txt')} does not exist.\n`);
      const missingUnknown = await opl(['convert', join(dir, 'nope.wav'), '--to', 'csv'], env);
      expect(missingUnknown.output).toMatch(/nope\.wav does not exist\./);
      const directory = await opl(['convert', dir, '--to', 'csv'], env);
      expect(directory.code).toBe(1);
      expect(directory.output).toBe(`opl convert: ${dir} is a directory, not a playlist file.\n`);
    });

    it('an input file it may not read', { timeout: 60_000 }, async () => {
      await writeFile(join(dir, 'secret.txt'), 'A - B\n', { mode: 0o000 });
      const result = await oplBoundByModes(['convert', join(dir, 'secret.txt'), '--to', 'csv'], env);
      expect(result.code).toBe(1);
      expect(result.output).toMatch(/cannot read .*secret\.txt: permission denied\./);
      noTrace(result.output);
    });

    it('never replaces an existing output file without --force, and replaces it with --force', { timeout: 60_000 }, async () => {
      const out = join(dir, 'kept.csv');
      await writeFile(out, 'precious');
      const refused = await opl(['convert', join(dir, 'list.txt'), '--to', 'csv', '-o', out], env);
      expect(refused.code).toBe(1);
      expect(refused.output).toBe(`opl convert: ${out} already exists; choose another -o or add --force to replace it.\n`);
      expect(await readFile(out, 'utf8')).toBe('precious');
      const sameAsInput = await opl(['convert', join(dir, 'list.txt'), '--to', 'txt', '-o', join(dir, 'list.txt')], env);
      expect(sameAsInput.code).toBe(1);
      expect(await readFile(join(dir, 'list.txt'), 'utf8')).toBe('Daft Punk - One More Time\nRöyksopp - Eple\n');
      const forced = await opl(['convert', join(dir, 'list.txt'), '--to', 'csv', '-o', out, '--force'], env);
      expect(forced.code, forced.output).toBe(0);
      expect(await readFile(out, 'utf8')).toContain('One More Time');
      expect((await readdir(dir)).filter((name) => name.endsWith('.partial'))).toEqual([]);
    });

    it('refuses to write over existing files of a directory output before writing any', { timeout: 60_000 }, async () => {
      const bundle = { schema_version: 1, source_provider: null, warnings: [], playlists: [{ name: 'First', tracks: [] }, { name: 'Second', tracks: [] }] };
      await writeFile(join(dir, 'two.json'), JSON.stringify(bundle));
      await mkdir(join(dir, 'into'));
      await writeFile(join(dir, 'into', 'Second.m3u8'), 'mine');
      const refused = await opl(['convert', join(dir, 'two.json'), '--to', 'm3u8', '-o', join(dir, 'into') + '/'], env);
      expect(refused.code).toBe(1);
      expect(refused.output).toMatch(/Second\.m3u8 already exists; choose another -o or add --force/);
      expect((await readdir(join(dir, 'into'))).sort()).toEqual(['Second.m3u8']);
      expect(await readFile(join(dir, 'into', 'Second.m3u8'), 'utf8')).toBe('mine');
    });

    it('an output directory the file system refuses to make (below /proc) is an answer, not a hang', { timeout: 60_000 }, async () => {
      const result = await opl(['convert', join(dir, 'list.txt'), '--to', 'csv', '-o', '/proc/opl-nope/deeper/out.csv'], env);
      expect(result.code).toBe(1);
      expect(result.output).toBe('opl convert: cannot create the output directory /proc/opl-nope/deeper: no such file or directory.\n');
    });

    it('makes missing output directories, however deep', { timeout: 60_000 }, async () => {
      const result = await opl(['convert', join(dir, 'list.txt'), '--to', 'csv', '-o', join(dir, 'made', 'a', 'b', 'out.csv')], env);
      expect(result.code, result.output).toBe(0);
      expect(await readFile(join(dir, 'made', 'a', 'b', 'out.csv'), 'utf8')).toContain('schema_version');
    });

    it('an output path it cannot create: a file in the way of its directory', { timeout: 60_000 }, async () => {
      const result = await opl(['convert', join(dir, 'list.txt'), '--to', 'csv', '-o', join(dir, 'list.txt', 'out.csv')], env);
      expect(result.code).toBe(1);
      expect(result.output).toBe(`opl convert: cannot create the output directory ${join(dir, 'list.txt')}: a file of that name is in the way.\n`);
    });

    it('an output directory it may not write into', { timeout: 60_000 }, async () => {
      await mkdir(join(dir, 'locked'), { mode: 0o555 });
      for (const out of [join(dir, 'locked', 'out.csv'), join(dir, 'locked') + '/']) {
        const result = await oplBoundByModes(['convert', join(dir, 'list.txt'), '--to', 'csv', '-o', out], env);
        expect(result.code).toBe(1);
        expect(result.output).toMatch(/^opl convert: cannot write .*locked\/(out|list)\.csv: permission denied\.\n$/);
      }
      expect(await readdir(join(dir, 'locked'))).toEqual([]);
    });

    it('a reader that goes away early (`| head`) is said in words, not blamed on the plugin', { timeout: 60_000 }, async () => {
      await writeFile(join(dir, 'long.txt'), Array.from({ length: 20_000 }, (_, i) => `Artist ${i} - Song ${i}`).join('\n'));
      const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('OPL_')));
      const child = spawn(process.execPath, ['--no-node-snapshot', CLI, 'convert', join(dir, 'long.txt'), '--to', 'csv'], { env: { ...inherited, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.stdout.once('data', () => child.stdout.destroy());
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code).toBe(1);
      expect(stderr).toBe('opl convert: could not write to standard output: the reader went away; the output is incomplete.\n');
    });
  });
});
