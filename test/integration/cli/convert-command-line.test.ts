import { chmod, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONVERT_USAGE, convertCommand } from '../../../core/cli/convert.command.ts';
import { loadConfig } from '../../../core/config/index.ts';
import { firstPartyPlugins } from '../support/first-party-plugins.ts';

/**
 * `opl convert` as typed at a shell: what a usage error says, where --help and `-o -` go, and how
 * a failure reads after the progress bar on a terminal.
 */

const TEXT = 'Daft Punk - One More Time\nRöyksopp - Eple\n';

/** A stream that keeps what it is given; with `failAfter`, it fails like a closed pipe after that many writes. */
function sink(failAfter = Infinity): { stream: Writable; text: () => string } {
  let text = '';
  let writes = 0;
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      if (writes++ >= failAfter) {
        done(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
        return;
      }
      text += chunk.toString();
      done();
    },
  });
  return { stream, text: () => text };
}

describe('opl convert: the command line', () => {
  let root: string;
  let plugins: Awaited<ReturnType<typeof firstPartyPlugins>>;
  let config: ReturnType<typeof loadConfig>;
  let input: string;

  async function convert(args: string[], options: { tty?: boolean; stdout?: ReturnType<typeof sink> } = {}): Promise<{ code: number; stdout: string; stderr: string }> {
    const stdout = options.stdout ?? sink();
    let stderr = '';
    const code = await convertCommand(args, config, { stdout: stdout.stream, stderr: { write: (text: string) => (stderr += text), isTTY: options.tty } });
    return { code, stdout: stdout.text(), stderr };
  }

  beforeAll(async () => {
    plugins = await firstPartyPlugins();
    root = await mkdtemp(join(tmpdir(), 'opl-convert-line-'));
    await chmod(root, 0o755);
    input = join(root, 'list.txt');
    await writeFile(input, TEXT);
    config = loadConfig({ ...plugins.env, OPL_LOG_LEVEL: 'silent' });
  }, 180_000);

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
    await plugins?.remove();
  });

  it('names what is missing or extra before the usage, with exit code 64', async () => {
    const cases: Array<[string[], string]> = [
      [[input], 'opl convert: name the output format with --to <format>.'],
      [['--to', 'csv'], 'opl convert: name the playlist file to convert.'],
      [[input, join(root, 'other.txt'), '--to', 'csv'], `opl convert: one input file at a time; "${join(root, 'other.txt')}" is a second one.`],
    ];
    for (const [args, line] of cases) {
      const result = await convert(args);
      expect(result.code, args.join(' ')).toBe(64);
      expect(result.stderr, args.join(' ')).toBe(`${line}\n\n${CONVERT_USAGE}`);
      expect(result.stdout).toBe('');
    }
  });

  it('says how to name the format of a file whose extension no plugin reads', { timeout: 60_000 }, async () => {
    const odd = join(root, 'list.dat');
    await writeFile(odd, TEXT);
    const refused = await convert([odd, '--to', 'csv']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^opl convert: no format plugin reads "list\.dat"\. Readable formats: .*txt \(\.txt\).*; if the file is one of these, name its format with --from <format>\.\n$/);
    const named = await convert([odd, '--to', 'csv', '--from', 'txt']);
    await rm(odd);
    expect(named.code, named.stderr).toBe(0);
    expect(named.stdout).toContain('"Eple","Röyksopp"');
  });

  it('asks for a file when the input is a pipe or a device', async () => {
    const result = await convert(['/dev/null', '--to', 'csv', '--from', 'txt']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('opl convert: /dev/null is not a regular file (a pipe or a device); save the playlist to a file and convert that.\n');
  });

  it('prints --help on standard output, where `| less` reads it', async () => {
    const result = await convert(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(CONVERT_USAGE);
    expect(result.stderr).toBe('');
  });

  it('writes to standard output with -o -, and no file named "-"', { timeout: 60_000 }, async () => {
    const cwd = process.cwd();
    process.chdir(root);
    try {
      const result = await convert([input, '--to', 'm3u8', '-o', '-']);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain('#EXTINF:-1,Röyksopp - Eple');
      expect(await readdir(root)).toEqual(['list.txt']);
    } finally {
      process.chdir(cwd);
    }
  });

  it('draws no bar by itself while the converted file goes to the same terminal', { timeout: 60_000 }, async () => {
    const big = join(root, 'many.txt');
    await writeFile(big, Array.from({ length: 12_000 }, (_, index) => `Artist ${index % 97} - Song ${index}`).join('\n'));
    const terminal = sink();
    Object.assign(terminal.stream, { isTTY: true });
    const onScreen = await convert([big, '--to', 'txt'], { tty: true, stdout: terminal });
    expect(onScreen.code, onScreen.stderr).toBe(0);
    expect(onScreen.stdout).toContain('Song 11999');
    expect(onScreen.stderr).toBe('');
    // Into a file, the same terminal shows the bar; --progress asks for it anyway.
    const intoFile = await convert([big, '--to', 'txt', '-o', join(root, 'many-out.txt')], { tty: true, stdout: terminal });
    expect(intoFile.stderr).toContain('\rconverting txt → txt [');
    const asked = await convert([big, '--to', 'txt', '--progress'], { tty: true, stdout: terminal });
    expect(asked.stderr).toContain('\rconverting txt → txt [');
    await rm(big);
    await rm(join(root, 'many-out.txt'));
  });

  it('ends the progress bar’s line on a terminal before a failure is reported', { timeout: 60_000 }, async () => {
    const big = join(root, 'big.txt');
    await writeFile(big, Array.from({ length: 20_000 }, (_, index) => `Artist ${index % 97} - Song ${index}`).join('\n'));
    const result = await convert([big, '--to', 'm3u8'], { tty: true, stdout: sink(1) });
    await rm(big);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('\r');
    // The message starts a line of its own, not the end of the bar's.
    expect(result.stderr).toMatch(/\nopl convert: could not write to standard output: the reader went away; the output is incomplete\.\n$/);
    expect(result.stderr).not.toContain('writtenopl convert');
  });

  it('reads what the content declares whatever the name, as an upload does: XSPF and WPL saved as .xml, JSPF as .json, M3U as .txt', async () => {
    const files: Array<[string, string, string]> = [
      ['mix.xml', '<?xml version="1.0"?>\n<playlist version="1" xmlns="http://xspf.org/ns/0/"><title>X</title><trackList><track><title>Song X</title><creator>Artist X</creator></track></trackList></playlist>', 'Artist X\tSong X'],
      ['list.xml', '<?wpl version="1.0"?>\n<smil><head><title>W</title></head><body><seq><media src="C:\\Music\\Artist W - Song W.mp3"/></seq></body></smil>', 'Artist W\tSong W'],
      ['spiff.json', JSON.stringify({ playlist: { title: 'J', track: [{ title: 'Song J', creator: 'Artist J' }] } }), 'Artist J\tSong J'],
      ['saved.txt', '#EXTM3U\n#EXTINF:200,Artist M - Song M\nC:\\Music\\m.mp3\n', 'Artist M\tSong M'],
    ];
    for (const [name, content, row] of files) {
      const path = join(root, name);
      await writeFile(path, content);
      const result = await convert([path, '--to', 'txt', '-o', '-']);
      expect(result.code, `${name}: ${result.stderr}`).toBe(0);
      const [title, artist] = row.split('\t').reverse();
      // The TXT v1 row holds the title and then the artist among its columns.
      expect(result.stdout, name).toContain(`${title}\t${artist}`);
    }
  });

  it('converts a bundle to a bundle keeping the provider it came from', async () => {
    const path = join(root, 'from-spotify.json');
    await writeFile(path, JSON.stringify({ schema_version: 1, source_provider: 'spotify', playlists: [{ name: 'Mine', tracks: [{ title: 'T', artist: 'A' }] }], warnings: [] }));
    const result = await convert([path, '--to', 'json', '-o', '-']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ schema_version: 1, source_provider: 'spotify', playlists: [{ name: 'Mine' }] });
  });

  it('takes format names in any case', async () => {
    const result = await convert([input, '--to', 'CSV', '--from', 'TXT', '-o', '-']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('"Eple","Röyksopp"');
  });
});
