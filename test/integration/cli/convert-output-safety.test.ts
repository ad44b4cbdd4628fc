import { chmod, link, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convertCommand } from '../../../core/cli/convert.command.ts';
import { loadConfig } from '../../../core/config/index.ts';
import { firstPartyPlugins } from '../support/first-party-plugins.ts';

/**
 * `opl convert` never harms the files around it: the input is never its own output, whatever
 * path names it, and output into a directory appears whole or not at all.
 */

const TEXT = 'Daft Punk - One More Time\nRöyksopp - Eple\n';

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
});
