import { describe, expect, it } from 'vitest';
import { encoder, parse, refusal, XSPF_HEAD } from './xspf-test-support.ts';

describe('hostile files', () => {
  it('refuses billion laughs, external entities and any DOCTYPE', async () => {
    const laughs = `<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>\n<playlist version="1" xmlns="http://xspf.org/ns/0/"><title>&lol2;</title><trackList/></playlist>`;
    expect(await refusal(laughs)).toMatch(/line 2.*DOCTYPE/);
    const xxe = `<?xml version="1.0"?>\n<!DOCTYPE playlist [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n<playlist version="1" xmlns="http://xspf.org/ns/0/"><title>&xxe;</title><trackList/></playlist>`;
    expect(await refusal(xxe)).toMatch(/DOCTYPE/);
    expect(await refusal('<!DOCTYPE playlist><playlist version="1" xmlns="http://xspf.org/ns/0/"><trackList/></playlist>')).toMatch(/DOCTYPE/);
    expect(await refusal('<playlist version="1" xmlns="http://xspf.org/ns/0/"><title>&xxe;</title><trackList/></playlist>')).toMatch(/entity/i);
  });

  // A hang guard (the timeout), not a speed check.
  it('refuses a 50 MB single line', { timeout: 120_000 }, async () => {
    expect(await refusal('A'.repeat(50 * 1024 * 1024))).toMatch(/does not start with "<"/);
    expect(await refusal(`${XSPF_HEAD}<title>${'A'.repeat(50 * 1024 * 1024)}</title><trackList/></playlist>`)).toMatch(/longer than 1000000 characters/);
  });

  // A hang guard (the timeout), not a speed check: one 50 MB line either parses or is refused naming the limit.
  it('reads a 50 MB single line within the limits, and refuses one beyond them naming the limit', { timeout: 120_000 }, async () => {
    const OPL = 'https://open-playlist.org/ns/xspf/1';
    const part = 'a'.repeat(900_000);
    const within = `<playlist version="1" xmlns="http://xspf.org/ns/0/" xmlns:opl="${OPL}"><extension application="${OPL}"><opl:metadata><opl:part>{"blob":"</opl:part>${`<opl:part>${part}</opl:part>`.repeat(58)}<opl:part>"}</opl:part></opl:metadata></extension><trackList/></playlist>`;
    expect(within.length).toBeGreaterThan(50_000_000);
    const read = await parse(within);
    expect(read.issues).toEqual([]);
    expect((read.playlists[0]!.metadata.blob as string).length).toBe(58 * 900_000);
    expect(await refusal(`${XSPF_HEAD.replace('">', `" xml:base="${'a'.repeat(50 * 1024 * 1024)}">`)}<trackList/></playlist>`)).toMatch(/attribute "xml:base" is longer than 1000000 characters/);
    expect(await refusal(`${XSPF_HEAD}${'<x>'.repeat(17_000_000)}`)).toMatch(/nested deeper than 32 levels/);
    expect(await refusal('<'.repeat(50 * 1024 * 1024))).toMatch(/XML refused at line 1/);
  });

  it('refuses invalid UTF-8, binary garbage and empty files', async () => {
    const invalid = new Uint8Array([...encoder.encode(`${XSPF_HEAD}<title>`), 0xc3, 0x28, 0xff, ...encoder.encode('</title><trackList/></playlist>')]);
    expect(await refusal(invalid)).toMatch(/not valid UTF-8/);
    const garbage = Uint8Array.from({ length: 65_536 }, (_, index) => (index * 7919 + 13) % 256);
    expect(await refusal(garbage)).toMatch(/UTF-8|XSPF/);
    expect(await refusal(new Uint8Array([0x3c, 0x00, 0x00, 0x01, 0x02]))).toMatch(/XML refused/);
    expect(await refusal('')).toMatch(/empty/);
    expect(await refusal('<playlist')).toMatch(/XML refused/);
  });

  it('keeps a genuine U+FFFD and reads a UTF-16 file with a BOM and a Latin-1 declared file', async () => {
    const genuine = await parse(`${XSPF_HEAD}<title>\uFFFD</title><trackList/></playlist>`);
    expect(genuine.playlists[0]!.name).toBe('\uFFFD');
    const utf16 = `\uFEFF${XSPF_HEAD.replace('UTF-8', 'UTF-16')}<title>Ünï 😀</title><trackList/></playlist>`;
    const bytes = new Uint8Array(utf16.length * 2);
    for (let index = 0; index < utf16.length; index += 1) {
      bytes[index * 2] = utf16.charCodeAt(index) & 0xff;
      bytes[index * 2 + 1] = utf16.charCodeAt(index) >> 8;
    }
    expect((await parse(bytes)).playlists[0]!.name).toBe('Ünï 😀');
    const latin1 = Uint8Array.from(`<?xml version="1.0" encoding="ISO-8859-1"?><playlist version="1" xmlns="http://xspf.org/ns/0/"><title>Caf\u00e9</title><trackList/></playlist>`, (char) => char.charCodeAt(0));
    expect((await parse(latin1)).playlists[0]!.name).toBe('Café');
  });
});
