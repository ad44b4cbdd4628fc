import { manifestSchema, type Manifest } from '@opl/plugin-sdk/schemas';
import { describe, expect, it } from 'vitest';
import { contentSignature } from '../../../../core/services/imports/format-sniffer.ts';
import { chooseReader } from '../../../../core/services/imports/reader-choice.ts';

/** How a file's reader is chosen: what its content declares, then its name, its media type, a guess. */

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

function formatPlugin(name: string, extensions: string[], mediaTypes: string[]): Manifest {
  return manifestSchema.parse({
    manifest_version: 1,
    id: `com.example.${name.replace(/[^a-z0-9]/g, '')}`,
    name,
    version: '1.0.0',
    kind: 'format',
    publisher: { name: 'Example', key_id: 'example-key' },
    engines: { opl: '>=0.1.0' },
    files: { 'plugin.js': 'a'.repeat(64) },
    format: { name, display_name: name, extensions, media_types: mediaTypes, directions: ['import'] },
  });
}

const ALL = [
  formatPlugin('txt', ['.txt'], ['text/plain']),
  formatPlugin('csv', ['.csv'], ['text/csv']),
  formatPlugin('m3u8', ['.m3u', '.m3u8'], ['audio/x-mpegurl']),
  formatPlugin('pls', ['.pls'], ['audio/x-scpls']),
  formatPlugin('wpl', ['.wpl', '.zpl'], ['application/vnd.ms-wpl']),
  formatPlugin('xspf', ['.xspf', '.jspf'], ['application/xspf+xml']),
  formatPlugin('json', ['.json'], ['application/json']),
  formatPlugin('itunes-library', ['.xml'], ['application/x-plist']),
  formatPlugin('xml', ['.xml'], ['application/xml', 'text/xml']),
];

const choose = (fileName: string | null, content: string, options?: { guess: boolean }, manifests = ALL, mediaType: string | null = null) =>
  chooseReader(manifests, { fileName, mediaType, head: bytes(content) }, options).reader?.name;

describe('contentSignature', () => {
  it('names the formats whose content says what they are', () => {
    expect(contentSignature(bytes('\uFEFF  #EXTM3U\n#EXTINF:1,a\nb.mp3'))).toBe('m3u8');
    expect(contentSignature(bytes('[playlist]\nFile1=a.mp3'))).toBe('pls');
    expect(contentSignature(bytes('<?xml version="1.0"?>\n<!-- made by hand -->\n<playlist version="1" xmlns="http://xspf.org/ns/0/"/>'))).toBe('xspf');
    expect(contentSignature(bytes('<?xml version="1.0"?><?wpl version="1.0"?><smil/>'))).toBe('wpl');
    expect(contentSignature(bytes('<x:smil xmlns:x="urn:x"><body/></x:smil>'))).toBe('wpl');
    expect(contentSignature(bytes('{ "playlist" : { "title": "j", "track": [] } }'))).toBe('xspf');
    expect(contentSignature(bytes('# Open Playlist TXT v1\n'))).toBe('txt');
  });

  it('decides XML by the root element, not by a name somewhere in the text', () => {
    // An XSPF whose title mentions <smil> (as text in a comment and CDATA) is XSPF.
    expect(contentSignature(bytes('<?xml version="1.0"?><!-- <smil> --><playlist version="1" xmlns="http://xspf.org/ns/0/"><title><![CDATA[<smil>]]></title><trackList/></playlist>'))).toBe('xspf');
    expect(contentSignature(bytes('<!DOCTYPE html [<!ENTITY x "<playlist>">]><html><body>playlist</body></html>'))).toBeUndefined();
  });

  it('says nothing of content without such a mark', () => {
    for (const text of ['Daft Punk - One More Time\n', 'title,artist\nA,B\n', '{"schema_version": 1, "playlists": []}', '', '\0\0\0binary']) expect(contentSignature(bytes(text)), text).toBeUndefined();
  });
});

describe('chooseReader', () => {
  it('lets declared content win over the name: XSPF or WPL as .xml, JSPF as .json, M3U as .txt, PLS as .m3u', () => {
    expect(choose('mix.xml', '<?xml version="1.0"?><playlist version="1" xmlns="http://xspf.org/ns/0/"><trackList/></playlist>')).toBe('xspf');
    expect(choose('list.xml', '<?wpl version="1.0"?><smil/>')).toBe('wpl');
    expect(choose('export.xml', '<?xml version="1.0"?><playlists><playlist name="a"/></playlists>')).toBe('xml');
    expect(choose('export.xspf', '<playlist name="Road trip"><track title="t"/></playlist>')).toBe('xml');
    expect(choose('Library.xml', '<?xml version="1.0"?><plist version="1.0"><dict><key>Tracks</key><dict/>')).toBe('itunes-library');
    expect(choose('mix.json', '{"playlist": {"track": []}}')).toBe('xspf');
    expect(choose('saved.txt', '#EXTM3U\n#EXTINF:1,a\nb.mp3\n')).toBe('m3u8');
    expect(choose('radio.m3u', '[playlist]\nFile1=http://radio.example/\n')).toBe('pls');
  });

  it('goes by the name when the content declares nothing, then by the media type, then by a guess unless told not to guess', () => {
    expect(choose('Library.xml', '<?xml version="1.0"?><plist version="1.0"><dict><key>Major Version</key>')).toBe('itunes-library');
    expect(choose('list.csv', 'Daft Punk - One More Time\n')).toBe('csv');
    expect(choose(null, 'Daft Punk - One More Time\n', undefined, ALL, 'audio/x-mpegurl')).toBe('m3u8');
    expect(choose('list.dat', 'title,artist\nA,B\n')).toBe('csv');
    expect(choose('list.dat', 'title,artist\nA,B\n', { guess: false })).toBeUndefined();
    // A declared format is still read without guessing.
    expect(choose('list.dat', '#EXTM3U\n', { guess: false })).toBe('m3u8');
  });

  it('falls back to the name when the declared format has no loaded reader, and reports what the content looked like', () => {
    const withoutXspf = ALL.filter((manifest) => manifest.format?.name !== 'xspf');
    expect(choose('mix.xml', '<playlist version="1" xmlns="http://xspf.org/ns/0/"/>', undefined, withoutXspf)).toBe('itunes-library');
    const nothing = chooseReader([], { fileName: 'mix.xspf', mediaType: null, head: bytes('<playlist version="1"/>') });
    expect(nothing).toEqual({ reader: undefined, sniffed: 'xspf' });
  });
});
