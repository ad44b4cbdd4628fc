import type { Playlist } from '@opl/plugin-sdk';
import { FORMAT_OPERATIONS } from '@opl/plugin-sdk/schemas';
import { describe, expect, it } from 'vitest';
import { csvRows, quoteField } from './csv-writer.ts';

const HEADER =
  '"schema_version","playlist_id","playlist_name","playlist_description","playlist_kind","playlist_owner_id","playlist_artwork_uri","playlist_created_at","playlist_updated_at","order","source_position","track_id","source_item_id","title","artist","album","duration_seconds","isrc","source_uri","artwork_uri","added_at","media_type","unsupported_reason"\r\n';

function playlist(input: unknown): Playlist {
  return FORMAT_OPERATIONS.serialize.input.shape.playlists.element.parse(input);
}

describe('CSV v1 writer', () => {
  it('starts with a BOM and the quoted header of the 23 v1 columns, CRLF-terminated', () => {
    const text = [...csvRows([], null)].join('');
    expect(text).toBe(`\uFEFF${HEADER}`);
    expect([...new TextEncoder().encode(text).slice(0, 4)]).toEqual([0xef, 0xbb, 0xbf, 0x22]);
  });

  it('writes an empty playlist as one metadata-only row with every track column empty', () => {
    const [, row] = [...csvRows([playlist({ id: 'p0', name: 'Nothing yet' })], null)];
    expect(row).toBe(`"1","p0","Nothing yet","","PLAYLIST","","","",""${',""'.repeat(14)}\r\n`);
  });

  it('quotes every field, doubles quotes, keeps line breaks, rounds durations and picks source_uri', () => {
    const input = playlist({
      id: 'p1',
      name: 'Say "hi", world',
      tracks: [
        { title: 'Two\r\nlines', artist: 'A, B', duration_s: 182.5, provider_uris: { tidal: 'tidal:track:9', spotify: 'spotify:track:1' } },
        { title: 'Short', artist: 'C', duration_s: 182.4, provider_uris: { tidal: 'tidal:track:8', spotify: 'spotify:track:2' } },
      ],
    });
    const rows = [...csvRows([input], 'tidal')];
    expect(rows[1]).toBe(`"1","p1","Say ""hi"", world","","PLAYLIST","","","","","1","","","","Two\r\nlines","A, B","","183","","tidal:track:9","","","track",""\r\n`);
    const [, , second] = [...csvRows([input], null)];
    expect(second).toContain('"2","","","","Short","C","","182","","spotify:track:2"');
  });

  it('writes the URI a reader kept in metadata.source_uri when the track has no provider URI', () => {
    const input = playlist({ name: 'p', tracks: [{ title: 'Local', artist: 'Me', metadata: { source_uri: 'spotify:local:Me::Local:200' } }] });
    const [, row] = [...csvRows([input], null)];
    expect(row).toContain('"Local","Me","","","","spotify:local:Me::Local:200"');
  });

  it('prefixes formula-leading cells with an apostrophe, exactly like the TXT writer', () => {
    const input = playlist({
      name: '=HYPERLINK("x")',
      tracks: [{ title: '+1', artist: ' -x', album: '@mention', isrc: "'=already", source_position: -1, provider_uris: {}, artwork_uri: "'Til" }],
    });
    const [, row] = [...csvRows([input], null)];
    expect(row).toContain(`"'=HYPERLINK(""x"")"`);
    expect(row).toContain(`"'-1"`);
    expect(row).toContain(`"'+1","' -x","'@mention"`);
    expect(row).toContain(`"''=already"`);
    expect(row).toContain(`"'Til"`);
  });

  it('quoteField follows RFC 4180', () => {
    expect(quoteField('')).toBe('""');
    expect(quoteField('a"b')).toBe('"a""b"');
  });
});
