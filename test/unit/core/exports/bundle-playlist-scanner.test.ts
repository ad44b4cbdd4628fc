import { describe, expect, it } from 'vitest';
import { BundlePlaylistScanner } from '../../../../core/services/exports/bundle-playlist-scanner.ts';

/** Feeds the text in chunks of `size` bytes; returns the copied text and the scanner's verdict. */
function scan(text: string, size: number): { copied: string; problem: string | null } {
  const scanner = new BundlePlaylistScanner();
  const bytes = Buffer.from(text);
  const pieces: Buffer[] = [];
  for (let offset = 0; offset < bytes.length; offset += size) pieces.push(...scanner.push(bytes.subarray(offset, offset + size)));
  return { copied: Buffer.concat(pieces).toString('utf8'), problem: scanner.end() };
}

const playlist = '{\n      "id": "p1",\n      "name": "Tricky \\" ] } { [ , : \\\\",\n      "tracks": [\n        {"title":"東京の夜 😀","artist":"a","metadata":{"playlists":[{}]}}\n      ]\n    }';
const bundle = `{\n  "$schema": "https://x/schemas",\n  "schema_version": 1,\n  "source_provider": "spotify",\n  "playlists": [\n    ${playlist}\n  ],\n  "warnings": [{"code":"w","message":"{"}]\n}\n`;

describe('bundle playlist scanner', () => {
  it('copies the one playlist object byte for byte, whatever the chunk boundaries', () => {
    for (const size of [1, 2, 3, 7, 64, 65_536]) {
      const { copied, problem } = scan(bundle, size);
      expect(problem).toBeNull();
      expect(copied).toBe(playlist);
      expect(JSON.parse(copied)).toMatchObject({ id: 'p1' });
    }
  });

  it('refuses documents that are not a one-playlist bundle', () => {
    expect(scan(bundle.replace(playlist, `${playlist}, ${playlist}`), 5).problem).toMatch(/more than one playlist/);
    expect(scan(bundle.replace(playlist, ''), 5).problem).toMatch(/0 playlists/);
    expect(scan(bundle.replace(playlist, '"p"'), 5).problem).toMatch(/not a JSON object/);
    expect(scan(bundle.replace('"playlists"', '"lists"'), 5).problem).toMatch(/no single "playlists" array/);
    expect(scan(bundle.slice(0, -10), 5).problem).toMatch(/ends before/);
    expect(scan(`${bundle}{}`, 5).problem).toMatch(/text after/);
    expect(scan('[1]', 5).problem).toMatch(/not a JSON object/);
  });
});
