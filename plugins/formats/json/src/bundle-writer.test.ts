import { formatKit } from '@opl/plugin-sdk';
import { runParse, runSerialize } from '@opl/plugin-sdk/testing';
import { describe, expect, it } from 'vitest';
import { bundleOptions, bundlePieces } from './bundle-writer.ts';
import plugin from './index.ts';

const encoder = new TextEncoder();

describe('serialize', () => {
  it('writes the bundle header, 2-space indentation and one line per track', async () => {
    const { text } = await runSerialize(plugin, [{ id: 'p1', name: 'Mix', tracks: [{ title: 'A', artist: 'B' }] }, { id: 'p2', name: 'Empty' }], { source_provider: 'spotify' });
    const lines = text.split('\n');
    expect(lines.slice(0, 5)).toEqual([
      '{',
      '  "$schema": "https://open-playlist.org/schemas/export/open-playlist-bundle-v1.json",',
      '  "schema_version": 1,',
      '  "source_provider": "spotify",',
      '  "playlists": [',
    ]);
    expect(lines).toContain('      "tracks": [],');
    expect(lines.find((line) => line.includes('"title":"A"'))).toMatch(/^ {8}\{"id":null,"title":"A","artist":"B",.*"provider_metadata":\{\}\}$/);
    expect(lines.slice(-4)).toEqual(['  ],', '  "warnings": []', '}', '']);
  });

  it('is one line when compact, with the same content', async () => {
    const input = { playlists: [{ name: 'x', tracks: [{ title: 't', artist: 'a', metadata: { nested: { deep: [1, 2] } } }] }] };
    const compact = (await runSerialize(plugin, input.playlists, { compact: true })).text;
    expect(compact.includes('\n')).toBe(false);
    expect(JSON.parse(compact)).toEqual(JSON.parse((await runSerialize(plugin, input.playlists)).text));
  });

  it('takes $schema from schema_base, and writes the warnings it is given', async () => {
    const warnings = [{ code: 'empty_playlist', message: 'no tracks', playlist_id: 'p2', extra: 'dropped' }, 'not a warning'];
    const document = JSON.parse((await runSerialize(plugin, [], { schema_base: 'https://engine.example/base/', warnings })).text) as Record<string, unknown>;
    expect(document.$schema).toBe('https://engine.example/base/export/open-playlist-bundle-v1.json');
    expect(document.source_provider).toBeNull();
    expect(document.warnings).toEqual([{ code: 'empty_playlist', message: 'no tracks', playlist_id: 'p2' }]);
    expect(bundleOptions({ schema_base: '  ', source_provider: '' })).toMatchObject({ schemaBase: 'https://open-playlist.org/schemas', sourceProvider: null, compact: false });
  });

  it('never alters values: formula-like text, control characters and lone surrogates survive', async () => {
    const titles = ['=SUM(A1)', '+1', '@home', "'quoted", 'tab\there', 'nul\u0000', 'line\u2028sep', 'lone \uD800 half', '🎵'];
    const { text } = await runSerialize(plugin, [{ name: '-dash', tracks: titles.map((title) => ({ title, artist: '=x' })) }]);
    expect(text.isWellFormed()).toBe(true);
    const parsed = await runParse(plugin, text);
    expect(parsed.playlists[0]?.name).toBe('-dash');
    expect(parsed.playlists[0]?.tracks.map((track) => track.title)).toEqual(titles);
  });

  it('streams 100,000 tracks in chunks of at most 64 KiB, piece by piece', { timeout: 60_000 }, async () => {
    const tracks = Array.from({ length: 100_000 }, (_, index) => ({ id: `t${index}`, title: `Song ${index} — 曲`, artist: 'Artist', provider_uris: { spotify: `spotify:track:${index}` } }));
    const { chunks } = await runSerialize(plugin, [{ name: 'Huge', tracks }]);
    expect(chunks.length).toBeGreaterThan(100);
    for (const chunk of chunks) expect(encoder.encode(chunk).length).toBeLessThanOrEqual(formatKit.MAX_CHUNK_BYTES);
    const parsed = await runParse(plugin, chunks.join(''));
    expect(parsed.playlists[0]?.tracks).toHaveLength(100_000);
    expect(parsed.playlists[0]?.tracks[99_999]?.id).toBe('t99999');
    // No piece is a whole playlist: the writer yields per track.
    const pieces = [...bundlePieces([{ ...parsed.playlists[0]!, tracks: parsed.playlists[0]!.tracks.slice(0, 3) }], bundleOptions({}))];
    expect(pieces.filter((piece) => piece.includes('"title"'))).toHaveLength(3);
  });
});
