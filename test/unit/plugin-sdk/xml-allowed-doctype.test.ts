import { describe, expect, it } from 'vitest';
import { parseXml, XmlParseError } from '../../../plugin-sdk/src/xml/index.ts';

/** `parseXml`'s opt-in for one exact external DOCTYPE (the Apple plist one of iTunes `Library.xml`). */

const PLIST = { name: 'plist', publicId: '-//Apple//DTD PLIST 1.0//EN', systemId: 'http://www.apple.com/DTDs/PropertyList-1.0.dtd' } as const;
const DOCTYPE = '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">';
const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

function refusal(text: string, options?: Parameters<typeof parseXml>[1]): string {
  try {
    parseXml(text, options);
  } catch (error) {
    expect(error).toBeInstanceOf(XmlParseError);
    return (error as XmlParseError).message;
  }
  throw new Error('expected parseXml to refuse the document');
}

describe('parseXml allowedDoctype', () => {
  it('accepts exactly the allowed DOCTYPE (either quote style, any whitespace) and reads the document', () => {
    for (const doctype of [DOCTYPE, `<!DOCTYPE  plist\n PUBLIC '${PLIST.publicId}'\t'${PLIST.systemId}' >`]) {
      const root = parseXml(`${XML_DECLARATION}<!-- made by hand -->\n${doctype}\n<plist version="1.0"><dict><key>A &amp; B</key></dict></plist>`, { allowedDoctype: PLIST });
      expect(root.name).toBe('plist');
      expect(root.children[0]?.children[0]?.text).toBe('A & B');
    }
  });

  it('still refuses every DOCTYPE without the opt-in (default unchanged)', () => {
    expect(refusal(`${XML_DECLARATION}${DOCTYPE}<plist/>`)).toMatch(/DOCTYPE is not accepted/);
  });

  it('refuses other DOCTYPEs, an internal subset, entity declarations and a second DOCTYPE', () => {
    const cases = [
      `<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd" [<!ENTITY x "y">]><plist>&x;</plist>`,
      `<!DOCTYPE plist SYSTEM "file:///etc/passwd"><plist/>`,
      `<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://evil.example/PropertyList-1.0.dtd"><plist/>`,
      `<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]><plist>&lol2;</plist>`,
      `<!DOCTYPE html><plist/>`,
    ];
    for (const text of cases) expect(refusal(`${XML_DECLARATION}${text}`, { allowedDoctype: PLIST })).toMatch(/DOCTYPE other than <!DOCTYPE plist PUBLIC/);
    expect(refusal(`${DOCTYPE}${DOCTYPE}<plist/>`, { allowedDoctype: PLIST })).toMatch(/doctype/i);
  });

  it('refuses entity references the DTD would define (it is never read) and a root other than the DOCTYPE name', () => {
    expect(refusal(`${DOCTYPE}<plist><string>&nbsp;</string></plist>`, { allowedDoctype: PLIST })).toMatch(/undefined entity "&nbsp;"/);
    expect(refusal(`${DOCTYPE}<playlist/>`, { allowedDoctype: PLIST })).toMatch(/root element is <playlist>, not <plist>/);
  });

  it('accepts a document without a DOCTYPE under the opt-in', () => {
    expect(parseXml('<plist version="1.0"><array/></plist>', { allowedDoctype: PLIST }).name).toBe('plist');
  });
});
