import { chmod, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOpl } from '../support/engine-process.ts';
import { firstPartyPlugins } from '../support/first-party-plugins.ts';

async function opl(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const run = runOpl(args, env);
  const { code } = await run.exited;
  return { code, output: run.output() };
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

  it('shows progress when asked', { timeout: 60_000 }, async () => {
    const lines = Array.from({ length: 3_000 }, (_, i) => `Artist ${i % 97} - Song ${i}`).join('\n');
    await writeFile(join(root, 'big.txt'), lines);
    const result = await opl(['convert', join(root, 'big.txt'), '--to', 'm3u8', '-o', join(root, 'big.m3u8'), '--progress'], env);
    expect(result.code, result.output).toBe(0);
    expect(result.output).toMatch(/converting txt → m3u8: 1\/1 playlist\(s\), 3000 track\(s\), [\d.]+ MiB written/);
  });
});
