import { chmod, link, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convertCommand } from '../../../core/cli/convert.command.ts';
import { loadConfig } from '../../../core/config/index.ts';
import { runOpl } from '../support/engine-process.ts';
import { firstPartyPlugins } from '../support/first-party-plugins.ts';

/**
 * `opl convert` never harms the files around it: the input is never its own output, whatever
 * path names it, and output into a directory appears whole or not at all.
 */

const TEXT = 'Daft Punk - One More Time\nRöyksopp - Eple\n';

/** A bundle of playlists, each with `count` made-up tracks. */
function bundle(playlists: Record<string, number>): string {
  return JSON.stringify({
    schema_version: 1,
    source_provider: null,
    warnings: [],
    playlists: Object.entries(playlists).map(([name, count]) => ({ name, tracks: Array.from({ length: count }, (_, index) => ({ title: `Song ${index}`, artist: `Artist ${index % 97}` })) })),
  });
}

describe('opl convert: the input and the files around the output are kept', () => {
  let root: string;
  let plugins: Awaited<ReturnType<typeof firstPartyPlugins>>;
  let config: ReturnType<typeof loadConfig>;

  async function convert(args: string[]): Promise<{ code: number; stderr: string }> {
    let stderr = '';
    const code = await convertCommand(args, config, { stdout: process.stdout, stderr: { write: (text: string) => (stderr += text) } });
    return { code, stderr };
  }

  beforeAll(async () => {
    plugins = await firstPartyPlugins();
    root = await mkdtemp(join(tmpdir(), 'opl-convert-safety-'));
    await chmod(root, 0o755);
    config = loadConfig({ ...plugins.env, OPL_LOG_LEVEL: 'silent' });
  }, 180_000);

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
    await plugins?.remove();
  });

  it('refuses to write over its own input, even with --force and under another name', { timeout: 60_000 }, async () => {
    const dir = join(root, 'self');
    await mkdir(dir);
    const input = join(dir, 'self.txt');
    await writeFile(input, TEXT);
    await symlink(input, join(dir, 'alias.csv'));
    await link(input, join(dir, 'hard.csv'));
    for (const output of [input, `${dir}/../self/self.txt`, join(dir, 'alias.csv'), join(dir, 'hard.csv')]) {
      const result = await convert([input, '--to', 'csv', '-o', output, '--force']);
      expect(result.code, output).toBe(1);
      expect(result.stderr, output).toBe(`opl convert: ${output} is the input file ${input}; the input is never overwritten: choose another -o.\n`);
      expect(await readFile(input, 'utf8')).toBe(TEXT);
    }
    expect((await readdir(dir)).sort()).toEqual(['alias.csv', 'hard.csv', 'self.txt']);
  });

  it('refuses a directory output where a generated file name is the input', { timeout: 60_000 }, async () => {
    const dir = join(root, 'bundle');
    await mkdir(dir);
    const input = join(dir, 'Mine.json');
    const bundle = JSON.stringify({ schema_version: 1, source_provider: null, warnings: [], playlists: [{ name: 'Mine', tracks: [{ title: 'Eple', artist: 'Röyksopp' }] }] });
    await writeFile(input, bundle);
    const result = await convert([input, '--to', 'json', '-o', `${dir}/`, '--force']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${input} is the input file ${input}; the input is never overwritten`);
    expect(await readFile(input, 'utf8')).toBe(bundle);
    expect(await readdir(dir)).toEqual(['Mine.json']);
  });

  it('writes no file of a directory output when one of them cannot be written (a directory in the way, with --force)', { timeout: 60_000 }, async () => {
    const dir = join(root, 'blocked');
    await mkdir(join(dir, 'out', 'e', 'Beta.csv'), { recursive: true });
    await writeFile(join(dir, 'out', 'e', 'Gamma.csv'), 'kept until replaced');
    await writeFile(join(dir, 'two.json'), bundle({ Alpha: 2, Beta: 2, Gamma: 1 }));
    const result = await convert([join(dir, 'two.json'), '--to', 'csv', '-o', `${join(dir, 'out', 'e')}/`, '--force']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`opl convert: cannot write ${join(dir, 'out', 'e', 'Beta.csv')}: it is a directory.\n`);
    expect((await readdir(join(dir, 'out', 'e'))).sort()).toEqual(['Beta.csv', 'Gamma.csv']);
    expect(await readFile(join(dir, 'out', 'e', 'Gamma.csv'), 'utf8')).toBe('kept until replaced');
  });

  it('replaces existing files of a directory output with --force when all can be written, leaving nothing hidden behind', { timeout: 60_000 }, async () => {
    const dir = join(root, 'replaced');
    await mkdir(join(dir, 'out'), { recursive: true });
    await writeFile(join(dir, 'out', 'Beta.csv'), 'old');
    await writeFile(join(dir, 'two.json'), bundle({ Alpha: 2, Beta: 3 }));
    const result = await convert([join(dir, 'two.json'), '--to', 'csv', '-o', `${join(dir, 'out')}/`, '--force']);
    expect(result.code, result.stderr).toBe(0);
    expect((await readdir(join(dir, 'out'))).sort()).toEqual(['Alpha.csv', 'Beta.csv']);
    expect(await readFile(join(dir, 'out', 'Beta.csv'), 'utf8')).toContain('Song 2');
  });

  it('leaves no file and no directory it made behind when Ctrl-C interrupts a directory output after its first file', { timeout: 120_000 }, async () => {
    const dir = join(root, 'interrupted');
    await mkdir(dir);
    const input = join(root, 'long.json');
    // A small first playlist and a long second one: Ctrl-C lands while the second is written.
    await writeFile(input, bundle({ Alpha: 1, Beta: 150_000 }));
    const out = join(dir, 'made', 'here');
    const run = runOpl(['convert', input, '--to', 'xspf', '-o', `${out}/`], { ...plugins.env, OPL_LOG_LEVEL: 'silent' });
    const writingSecond = async () => (await readdir(out).catch(() => [])).some((name) => name.startsWith('.Beta.xspf.'));
    const deadline = Date.now() + 100_000;
    while (!(await writingSecond()) && run.child.exitCode === null && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await readdir(out)).sort()).toEqual([expect.stringMatching(/^\.Alpha\.xspf\.\d+\.partial$/), expect.stringMatching(/^\.Beta\.xspf\.\d+\.partial$/)]);
    run.child.kill('SIGINT');
    expect(await run.exited).toEqual({ code: 130, signal: null });
    expect(run.output()).toContain(`opl convert: interrupted; nothing was written into ${out}/.`);
    expect(await readdir(dir)).toEqual([]);
  });
});
