import { describe, expect, it } from 'vitest';
import { sniffFormat } from '../../../../core/services/imports/format-sniffer.ts';

/** Content detection of XML uploads: WPL, iTunes / Apple Music Library.xml and XSPF by their roots. */

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const PLIST_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n<plist version="1.0">\n<dict>\n\t<key>Major Version</key><integer>1</integer>\n';

describe('sniffFormat for XML', () => {
  it('recognises WPL by its <?wpl?> instruction (<?zpl?> from Zune) or its <smil> root', () => {
    expect(sniffFormat(bytes('<?wpl version="1.0"?>\r\n<smil><head/></smil>'))).toBe('wpl');
    expect(sniffFormat(bytes(`<?zpl version="2.0"?>\r\n${' '.repeat(70_000)}<smil><head/></smil>`))).toBe('wpl');
    expect(sniffFormat(bytes('<?xml version="1.0"?><smil><body><seq/></body></smil>'))).toBe('wpl');
  });

  it('recognises a plist library by Tracks or Playlists, with or without a byte order mark', () => {
    expect(sniffFormat(bytes(`${PLIST_HEAD}\t<key>Tracks</key>\n\t<dict>`))).toBe('itunes-library');
    expect(sniffFormat(bytes(`\uFEFF${PLIST_HEAD}\t<key>Playlists</key><array>`))).toBe('itunes-library');
    // Any other property list is not a library.
    expect(sniffFormat(bytes(`${PLIST_HEAD}\t<key>CFBundleName</key><string>x</string>`))).toBeUndefined();
  });

  it('still recognises XSPF and refuses other XML', () => {
    expect(sniffFormat(bytes('<?xml version="1.0"?><playlist version="1" xmlns="http://xspf.org/ns/0/"/>'))).toBe('xspf');
    expect(sniffFormat(bytes('<?xml version="1.0"?><html><body/></html>'))).toBeUndefined();
  });
});

describe('sniffFormat for generic XML playlists', () => {
  it('sends a <playlists> root, and a <playlist> root that does not say it is XSPF, to the generic XML reader', () => {
    expect(sniffFormat(bytes('<?xml version="1.0"?>\n<playlists><playlist name="a"><track title="t"/></playlist></playlists>'))).toBe('xml');
    expect(sniffFormat(bytes('<playlist name="Road trip"><track title="t" artist="a"/></playlist>'))).toBe('xml');
  });

  it('keeps a <playlist> root that says it is XSPF (namespace, version or a <trackList>) with XSPF, whose reader refuses a wrong one', () => {
    expect(sniffFormat(bytes('<playlist xmlns="http://xspf.org/ns/1/"><trackList/></playlist>'))).toBe('xspf');
    expect(sniffFormat(bytes('<playlist version="1"><title>no namespace</title></playlist>'))).toBe('xspf');
    expect(sniffFormat(bytes('<playlist>\n<trackList><track/></trackList></playlist>'))).toBe('xspf');
    expect(sniffFormat(bytes('<x:playlist xmlns:x="http://xspf.org/ns/0/" version="1"><x:trackList/></x:playlist>'))).toBe('xspf');
  });
});
