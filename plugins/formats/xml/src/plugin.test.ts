import { runParse } from '@opl/plugin-sdk/testing';
import { describe, expect, it } from 'vitest';
import manifest from '../plugin.json' with { type: 'json' };
import plugin from './index.ts';

const parse = (text: string, filename: string | null = 'export.xml') => runParse(plugin, text, { filename, mediaType: 'application/xml' });

async function refusal(text: string): Promise<string> {
  try {
    await parse(text);
  } catch (error) {
    expect((error as { type?: string }).type).toBe('InvalidInput');
    return (error as Error).message;
  }
  throw new Error('expected the file to be refused');
}

describe('generic XML playlists', () => {
  it('is an import-only plugin for .xml', () => {
    expect(plugin.operations.serialize).toBeUndefined();
    expect(manifest.format).toMatchObject({ name: 'xml', extensions: ['.xml'], directions: ['import'] });
  });

  it('reads one <playlist> root with fields as attributes, named after the file when it has no name', async () => {
    const result = await parse('<playlist><track title="T" artist="A" album="X" duration="239" isrc="usrc17607839" uri="https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC?si=1"/></playlist>', 'My Export.xml');
    expect(result.issues).toEqual([]);
    expect(result.playlists).toHaveLength(1);
    expect(result.playlists[0]).toMatchObject({ name: 'My Export', tracks: [{ title: 'T', artist: 'A', album: 'X', duration_s: 239, isrc: 'USRC17607839', provider_uris: { spotify: 'spotify:track:4uLU6hMCjMI75M1A2tKUQC' } }] });
  });

  it('keeps a track without an artist, skips one naming nothing, and reports values it cannot read on their line', async () => {
    const result = await parse('<playlists><playlist name="P">\n<track title="Only title"/>\n<track rating="3"/>\n<track title="Odd" duration="long" isrc="not-an-isrc-at-all-really-too-long-for-the-model-xxxxxxxx"/>\n</playlist></playlists>');
    expect(result.playlists[0]!.tracks.map((track) => [track.title, track.artist, track.position])).toEqual([
      ['Only title', '', 0],
      ['Odd', '', 1],
    ]);
    expect(result.issues.map((issue) => [issue.line, issue.code])).toEqual([
      [3, 'unknown_field'],
      [3, 'empty_track'],
      [4, 'invalid_value'],
      [4, 'invalid_value'],
    ]);
  });

  it('reads a playlist link or a web address as a location, not a song of a provider', async () => {
    const result = await parse('<playlists><playlist name="P"><track title="Album" artist="A" uri="spotify:album:1"/><track title="Web" artist="A" url="https://example.org/a.mp3"/></playlist></playlists>');
    const [album, web] = result.playlists[0]!.tracks;
    expect(album).toMatchObject({ provider_uris: {}, media_type: 'unknown', is_migratable: false, metadata: { location: 'spotify:album:1' } });
    expect(web).toMatchObject({ provider_uris: {}, is_local: false, is_migratable: true, metadata: { location: 'https://example.org/a.mp3' } });
  });

  it('refuses another root, an empty <playlists>, and malformed XML with the line', async () => {
    expect(await refusal('<library><track title="a"/></library>')).toMatch(/root element is <library>/);
    expect(await refusal('<playlists/>')).toMatch(/holds no <playlist>/);
    expect(await refusal('<playlists>\n<playlist name="a">\n<track title="a"></playlist></playlists>')).toMatch(/line 3/);
    expect(await refusal('<playlists><playlist name="Simon & Garfunkel"/></playlists>')).toMatch(/bare "&"/);
  });

  describe('hostile input', () => {
    it('refuses entity bombs, external entities and undefined entities before expanding anything', async () => {
      const bomb = `<?xml version="1.0"?><!DOCTYPE playlists [<!ENTITY a "${'a'.repeat(100)}"><!ENTITY b "${'&a;'.repeat(100)}"><!ENTITY c "${'&b;'.repeat(100)}">]><playlists><playlist name="&c;"/></playlists>`;
      expect(await refusal(bomb)).toMatch(/DOCTYPE is not accepted/);
      expect(await refusal('<!DOCTYPE playlists SYSTEM "file:///etc/passwd"><playlists/>')).toMatch(/DOCTYPE is not accepted/);
      expect(await refusal('<playlists><playlist name="&nbsp;"/></playlists>')).toMatch(/undefined entity "&nbsp;"/);
    });

    it('refuses nesting deeper than a playlist needs and a text longer than any field', async () => {
      expect(await refusal(`<playlists>${'<x>'.repeat(40)}${'</x>'.repeat(40)}</playlists>`)).toMatch(/nested deeper than 16 levels/);
      expect(await refusal(`<playlists><playlist><track><title>${'t'.repeat(4_000_001)}</title></track></playlist></playlists>`)).toMatch(/longer than 4000000 characters/);
    });

    it('reads 100,000 tracks (converted as they close, never held as elements)', { timeout: 60_000 }, async () => {
      const rows = Array.from({ length: 100_000 }, (_, index) => `<track title="Song ${index}" artist="A" duration="${index % 600}"/>`).join('\n');
      const result = await parse(`<playlists><playlist name="Big">\n${rows}\n</playlist></playlists>`);
      expect(result.playlists[0]!.tracks).toHaveLength(100_000);
      expect(result.playlists[0]!.tracks[99_999]).toMatchObject({ title: 'Song 99999', position: 99_999, duration_s: 99_999 % 600 });
    });
  });
});
