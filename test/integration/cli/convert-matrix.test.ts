import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convertCommand } from '../../../core/cli/convert.command.ts';
import { loadConfig } from '../../../core/config/index.ts';
import { firstPartyPlugins } from '../support/first-party-plugins.ts';

/**
 * `opl convert` from every input format to every output format (issue 4 §6), offline through the
 * signed first-party format plugins in the sandbox: each input is a small hand-written file with
 * the same two songs, and every output must carry both titles and artists, in order.
 */

const SONGS = [
  { title: 'Harbour Lights', artist: 'The Quiet Tide' },
  { title: 'Ünder Glass', artist: 'Mara Voss' },
];

const INPUTS: Record<string, string> = {
  'list.txt': SONGS.map((song) => `${song.artist} - ${song.title}`).join('\n'),
  'list.csv': `Title,Artist\n${SONGS.map((song) => `"${song.title}","${song.artist}"`).join('\n')}\n`,
  'list.m3u8': `#EXTM3U\n${SONGS.map((song, index) => `#EXTINF:200,${song.artist} - ${song.title}\nsongs/track${index}.mp3`).join('\n')}\n`,
  'list.m3u': `#EXTM3U\n${SONGS.map((song, index) => `#EXTINF:200,${song.artist} - ${song.title}\nC:\\Music\\track${index}.mp3`).join('\r\n')}\r\n`,
  'list.pls': `[playlist]\n${SONGS.map((song, index) => `File${index + 1}=track${index}.mp3\nTitle${index + 1}=${song.artist} - ${song.title}\nLength${index + 1}=200`).join('\n')}\nNumberOfEntries=2\nVersion=2\n`,
  'list.xspf': `<?xml version="1.0" encoding="UTF-8"?>\n<playlist version="1" xmlns="http://xspf.org/ns/0/"><title>Mine</title><trackList>${SONGS.map((song) => `<track><title>${song.title}</title><creator>${song.artist}</creator></track>`).join('')}</trackList></playlist>\n`,
  'list.jspf': JSON.stringify({ playlist: { title: 'Mine', track: SONGS.map((song) => ({ title: song.title, creator: song.artist })) } }),
  'list.wpl': `<?wpl version="1.0"?>\r\n<smil><head><title>Mine</title></head><body><seq>${SONGS.map((song, index) => `<media src="${index === 0 ? '..\\Music\\' : 'file:///D:/Music/'}${song.artist} - ${song.title}.mp3"/>`).join('\r\n')}</seq></body></smil>\r\n`,
  // Zune and Groove Music: the WPL plugin reads it by its extension, titles from the media's attributes.
  'list.zpl': `<?zpl version="2.0"?>\r\n<smil><head><guid>{6C1B0F5E-2E4D-4C6A-9B1A-3D5E7F9A1B2C}</guid><meta name="Generator" content="Zune -- 4.8.2345.0" /><title>Mine</title></head><body><seq>${SONGS.map(
    (song, index) => `<media src="C:\\Users\\ole\\Music\\track${index}.wma" trackTitle="${song.title}" trackArtist="${song.artist}" duration="200000" />`,
  ).join('\r\n')}</seq></body></smil>\r\n`,
  'Library.xml': `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n<plist version="1.0"><dict><key>Tracks</key><dict>${SONGS.map(
    (song, index) => `<key>${index + 1}</key><dict><key>Track ID</key><integer>${index + 1}</integer><key>Name</key><string>${song.title}</string><key>Artist</key><string>${song.artist}</string><key>Total Time</key><integer>200000</integer></dict>`,
  ).join('')}</dict><key>Playlists</key><array><dict><key>Master</key><true/><key>Name</key><string>Library</string></dict><dict><key>Name</key><string>Mine</string><key>Playlist Items</key><array>${SONGS.map((_, index) => `<dict><key>Track ID</key><integer>${index + 1}</integer></dict>`).join('')}</array></dict></array></dict></plist>\n`,
  'list.json': JSON.stringify({
    $schema: 'https://open-playlist.org/schemas/export/open-playlist-bundle-v1.json',
    schema_version: 1,
    source_provider: null,
    playlists: [{ name: 'Mine', tracks: SONGS }],
    warnings: [],
  }),
};
const OUTPUTS = ['csv', 'txt', 'm3u8', 'xspf', 'json'] as const;

function sink(): { stream: Writable; text: () => string; isTTY?: boolean } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream, text: () => text };
}

describe('opl convert: every input format to every output format', () => {
  let root: string;
  let plugins: Awaited<ReturnType<typeof firstPartyPlugins>>;
  let config: ReturnType<typeof loadConfig>;

  beforeAll(async () => {
    plugins = await firstPartyPlugins();
    root = await mkdtemp(join(tmpdir(), 'opl-convert-matrix-'));
    await chmod(root, 0o755);
    for (const [name, content] of Object.entries(INPUTS)) await writeFile(join(root, name), content);
    config = loadConfig({ ...plugins.env, OPL_LOG_LEVEL: 'silent' });
  }, 180_000);

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
    await plugins?.remove();
  });

  for (const input of Object.keys(INPUTS)) {
    it(`reads ${input} and writes ${OUTPUTS.join(', ')}`, { timeout: 120_000 }, async () => {
      for (const format of OUTPUTS) {
        const out = join(root, `${input}.${format}`);
        const stderr = sink();
        const code = await convertCommand([join(root, input), '--to', format, '-o', out, ...(input.endsWith('.jspf') ? ['--from', 'xspf'] : [])], config, { stdout: sink().stream, stderr: { write: (text: string) => stderr.stream.write(text) } });
        expect(code, `${input} → ${format}: ${stderr.text()}`).toBe(0);
        const written = await readFile(out, 'utf8');
        const first = written.indexOf(SONGS[0]!.title);
        const second = written.indexOf(SONGS[1]!.title);
        expect(first, `${input} → ${format}`).toBeGreaterThanOrEqual(0);
        expect(second, `${input} → ${format}`).toBeGreaterThan(first);
        for (const song of SONGS) expect(written, `${input} → ${format}`).toContain(song.artist);
      }
    });
  }

  it('names the configured public schema base in a JSON bundle, else the canonical one (never this machine’s address)', { timeout: 60_000 }, async () => {
    const input = join(root, Object.keys(INPUTS)[0]!);
    const schemaOf = async (env: Record<string, string>, name: string) => {
      const out = join(root, name);
      const code = await convertCommand([input, '--to', 'json', '-o', out, ...(input.endsWith('.jspf') ? ['--from', 'xspf'] : [])], loadConfig({ ...plugins.env, OPL_LOG_LEVEL: 'silent', ...env }), { stdout: sink().stream, stderr: { write: () => true } });
      expect(code).toBe(0);
      return (JSON.parse(await readFile(out, 'utf8')) as { $schema: string }).$schema;
    };
    expect(await schemaOf({ OPL_SCHEMA_BASE_URL: 'https://schemas.example.org/opl' }, 'base-set.json')).toBe('https://schemas.example.org/opl/export/open-playlist-bundle-v1.json');
    expect(await schemaOf({ OPL_PUBLIC_BASE_URL: 'https://music.example.org', OPL_OWNER_SECRET: 'a-long-enough-owner-secret-for-tests' }, 'public-set.json')).toBe('https://music.example.org/schemas/export/open-playlist-bundle-v1.json');
    expect(await schemaOf({}, 'default.json')).toBe('https://open-playlist.org/schemas/export/open-playlist-bundle-v1.json');
  });

  it('draws a progress bar over the tracks and ends at 100% with the totals', { timeout: 60_000 }, async () => {
    const big = join(root, 'big.txt');
    await writeFile(big, Array.from({ length: 5_000 }, (_, index) => `Artist ${index % 97} - Song ${index}`).join('\n'));
    const stderr = sink();
    const code = await convertCommand([big, '--to', 'csv', '-o', join(root, 'big.csv'), '--progress'], config, { stdout: sink().stream, stderr: { write: (text: string) => stderr.stream.write(text) } });
    expect(code).toBe(0);
    const lines = stderr.text().split('\n');
    expect(lines[0]).toMatch(/^Reading big\.txt \([\d.]+ MiB\) with the txt plugin…$/);
    expect(lines[1]).toMatch(/^Read 1 playlist\(s\), 5000 track\(s\) in [\d.]+ s\.$/);
    const bars = lines.filter((line) => line.includes('] '));
    expect(bars.at(-1)).toMatch(/^converting txt → csv \[#{24}\] 100% {2}1\/1 playlist\(s\), [\d.]+ MiB written$/);
    expect(stderr.text()).toMatch(/converting txt → csv: 1\/1 playlist\(s\), 5000 track\(s\), [\d.]+ MiB written in [\d.]+ s/);
  });
});
