import { describe, expect, it } from 'vitest';
import { InvalidInput } from '../../../plugin-sdk/src/errors.ts';
import { escapeXmlAttribute, escapeXmlText, parseXml, stripXmlIllegalChars, xmlAttributeKey, xmlChild, xmlChildren, XmlParseError, type XmlElement } from '../../../plugin-sdk/src/xml/index.ts';

function refusal(text: string, options?: Parameters<typeof parseXml>[1]): XmlParseError {
  try {
    parseXml(text, options);
  } catch (error) {
    expect(error).toBeInstanceOf(XmlParseError);
    expect(error).toBeInstanceOf(InvalidInput);
    return error as XmlParseError;
  }
  throw new Error('expected parseXml to refuse the document');
}

const BILLION_LAUGHS = `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
]>
<lolz>&lol3;</lolz>`;

describe('parseXml', () => {
  it('builds a frozen element tree with namespaces, attributes, text and positions', () => {
    const root = parseXml('<?xml version="1.0" encoding="UTF-8"?>\n<playlist version="1" xmlns="http://xspf.org/ns/0/" xmlns:x="urn:x">\n  <title>A &amp; B</title>\n  <x:extra x:kind="k" plain="p">v</x:extra>\n</playlist>\n');
    expect(root).toMatchObject({ name: 'playlist', namespace: 'http://xspf.org/ns/0/', prefix: '', line: 2 });
    expect({ ...root.attributes }).toEqual({ version: '1' });
    expect(xmlChild(root, 'http://xspf.org/ns/0/', 'title')?.text).toBe('A & B');
    expect(xmlChild(root, 'http://xspf.org/ns/0/', 'title')?.line).toBe(3);
    const extra = xmlChildren(root, 'urn:x', 'extra');
    expect(extra).toHaveLength(1);
    expect(extra[0]!.prefix).toBe('x');
    expect(extra[0]!.attributes[xmlAttributeKey('urn:x', 'kind')]).toBe('k');
    expect(extra[0]!.attributes.plain).toBe('p');
    expect(xmlChild(root, '', 'title')).toBeNull();
    expect(Object.isFrozen(root)).toBe(true);
    expect(Object.isFrozen(root.children)).toBe(true);
    expect(Object.isFrozen(root.attributes)).toBe(true);
  });

  it('freezes every element, child list and attribute record, at every depth and as handed to onElement', () => {
    const streamed: XmlElement[] = [];
    const root = parseXml('<a x="1"><b><c y="2">t</c><d/></b>text</a>', {
      onElement: (element) => {
        streamed.push(element);
        return true;
      },
    });
    const all: XmlElement[] = [];
    const walk = (element: XmlElement): void => {
      all.push(element);
      element.children.forEach(walk);
    };
    walk(root);
    expect(all.map((element) => element.name)).toEqual(['a', 'b', 'c', 'd']);
    expect(streamed.map((element) => element.name)).toEqual(['c', 'd', 'b', 'a']);
    for (const element of [...all, ...streamed]) {
      expect(Object.keys(element)).toEqual(['name', 'namespace', 'prefix', 'attributes', 'children', 'text', 'line', 'column']);
      expect(Object.isFrozen(element) && Object.isFrozen(element.children) && Object.isFrozen(element.attributes)).toBe(true);
      expect(Object.getPrototypeOf(element.attributes)).toBeNull();
    }
    expect(streamed[3]).toBe(root);
  });

  it('resolves a namespace by URI whatever the prefix', () => {
    const root = parseXml('<p:playlist xmlns:p="http://xspf.org/ns/0/"><p:trackList/></p:playlist>');
    expect(root).toMatchObject({ name: 'playlist', namespace: 'http://xspf.org/ns/0/', prefix: 'p' });
    expect(xmlChild(root, 'http://xspf.org/ns/0/', 'trackList')).not.toBeNull();
  });

  it('reads CDATA, numeric character references and the five predefined entities', () => {
    const root = parseXml('<a>x<![CDATA[<b>&amp;</b>]]>y &#233;&#x1F600; &lt;&gt;&amp;&quot;&apos;</a>');
    expect(root.text).toBe('x<b>&amp;</b>y é😀 <>&"\'');
  });

  it('ignores comments and processing instructions', () => {
    const root = parseXml('<?xml version="1.0"?><!-- c --><?style x?><a><?pi data?>t<!-- c --></a>');
    expect(root.text).toBe('t');
    expect(root.children).toEqual([]);
  });

  it('refuses billion laughs at the DOCTYPE, before any expansion', () => {
    const error = refusal(BILLION_LAUGHS);
    expect(error.message).toMatch(/DOCTYPE/);
    expect(error.line).toBe(2);
  });

  it('refuses external entities (XXE)', () => {
    const error = refusal('<?xml version="1.0"?>\n<!DOCTYPE foo [ <!ENTITY xxe SYSTEM "file:///etc/passwd"> ]>\n<foo>&xxe;</foo>');
    expect(error.message).toMatch(/DOCTYPE/);
    expect(error.message).not.toMatch(/root:/);
  });

  it('refuses a DOCTYPE alone, after comments, and an undeclared entity reference', () => {
    expect(refusal('<!DOCTYPE playlist SYSTEM "http://example.invalid/x.dtd"><playlist/>').message).toMatch(/DOCTYPE/);
    expect(refusal('<!-- a -->\n<?pi?>\n<!DOCTYPE a><a/>').line).toBe(3);
    expect(refusal('<a>&xxe;</a>').message).toMatch(/entity/i);
    expect(refusal('<a><!ENTITY x "y"></a>')).toBeInstanceOf(XmlParseError);
  });

  it('refuses a deep nesting bomb without recursion or hang', () => {
    const depth = 100_000;
    const error = refusal('<a>'.repeat(depth) + '</a>'.repeat(depth), { maxDepth: 64 });
    expect(error.message).toMatch(/nested deeper than 64/);
  });

  it('refuses too many elements', () => {
    expect(refusal(`<a>${'<b/>'.repeat(11)}</a>`, { maxNodes: 10 }).message).toMatch(/more than 10 elements/);
  });

  it('refuses a huge attribute and huge text', () => {
    expect(refusal(`<a b="${'x'.repeat(2_000)}"/>`, { maxTextLength: 1_000 }).message).toMatch(/attribute "b" is longer than 1000/);
    expect(refusal(`<a>${'x'.repeat(2_000)}</a>`, { maxTextLength: 1_000 }).message).toMatch(/text of <a> is longer than 1000/);
    expect(refusal(`<a>${'x'.repeat(600)}<b/>${'x'.repeat(600)}</a>`, { maxTextLength: 1_000 }).message).toMatch(/longer than 1000/);
  });

  it('counts an element\'s text across its pieces: exactly the limit is accepted, one more is refused', () => {
    expect(parseXml(`<a>${'x'.repeat(500)}<b/><![CDATA[${'y'.repeat(499)}]]>z</a>`, { maxTextLength: 1_000 }).text).toHaveLength(1_000);
    expect(refusal(`<a>${'x'.repeat(500)}<b/><![CDATA[${'y'.repeat(500)}]]>z</a>`, { maxTextLength: 1_000 }).message).toMatch(/text of <a> is longer than 1000/);
  });

  it('refuses malformed documents with a position', () => {
    const unclosed = refusal('<a>\n<b></a>');
    expect(unclosed.line).toBe(2);
    expect(unclosed.message).toMatch(/^XML refused at line 2, column \d+: [a-z]/);
    // The position is said once, not again in saxes' own "line:column:" prefix.
    expect(refusal('<a/>trailing').message).toMatch(/^XML refused at line 1, column \d+: text data outside of root node\.$/);
    expect(refusal('<a></a><b/>')).toBeInstanceOf(XmlParseError);
    expect(refusal('<a>')).toBeInstanceOf(XmlParseError);
    expect(refusal('')).toBeInstanceOf(XmlParseError);
    expect(refusal('just text')).toBeInstanceOf(XmlParseError);
    expect(refusal('<a b="1" b="2"/>')).toBeInstanceOf(XmlParseError);
    expect(refusal('<x:a/>').message).toMatch(/prefix/);
    expect(refusal('<a>\u0001</a>')).toBeInstanceOf(XmlParseError);
    expect(refusal('<a>&#1;</a>')).toBeInstanceOf(XmlParseError);
  });

  it('names a bare ampersand where it stands, not where saxes noticed it lines later', () => {
    const title = refusal('<playlist>\n <trackList>\n  <track><title>Simon & Garfunkel</title></track>\n  <track><title>B</title></track>\n </trackList>\n</playlist>\n');
    expect([title.line, title.column]).toEqual([3, 23]);
    expect(title.message).toMatch(/a bare "&": .* written &amp;$/);
    const path = refusal('<smil>\n<seq>\n<media src="C:\\Music\\Simon & Garfunkel.mp3"/>\n<media src="a"/>\n<media src="Tom &amp; Jerry"/>\n</seq></smil>');
    expect([path.line, path.column, /bare "&"/.test(path.message)]).toEqual([3, 28, true]);
    const unknown = refusal('<a>\n&nbsp;</a>');
    expect([unknown.line, unknown.message]).toEqual([2, 'XML refused at line 2, column 1: undefined entity "&nbsp;": XML knows only &amp; &lt; &gt; &quot; &apos; and character references such as &#233; (for the text itself write &amp;nbsp;)']);
    // An ampersand in a comment, CDATA or a processing instruction is no mistake; the real one is named.
    const later = refusal('<!-- Tom & Jerry --><a><![CDATA[R&B]]><?pi a & b?>\n<b>AT&T</b></a>');
    expect([later.line, later.column]).toEqual([2, 6]);
    // A document broken before any ampersand keeps saxes' own reason; a malformed character reference too.
    expect(refusal('<a>\n<b></a> & more').message).toMatch(/^XML refused at line 2, column \d+: (?!a bare)/);
    expect(refusal('<a>&#xZZ;</a>').message).toMatch(/character entity/);
    expect(parseXml('<a t="x &amp; y &#38; &#x26; &lt;&gt;&quot;&apos;"><!-- & --><![CDATA[&]]></a>').attributes.t).toBe('x & y & & <>"\'');
  });

  it('refuses binary garbage quickly', () => {
    const garbage = Array.from({ length: 100_000 }, (_, index) => String.fromCharCode((index * 7919) % 256)).join('');
    expect(refusal(garbage)).toBeInstanceOf(XmlParseError);
  });
});

describe('writing XML', () => {
  it('strips characters outside the XML 1.0 Char production', () => {
    expect(stripXmlIllegalChars('a\u0000b\u0001\u0008\u000B\u000C\u001F\t\n\rc\uFFFE\uFFFF\uD800d😀\u0085')).toBe('ab\t\n\rcd😀\u0085');
    expect(stripXmlIllegalChars('clean')).toBe('clean');
  });

  it('escapes text and attributes so they read back equal', () => {
    const value = 'a & b < c > d "q" \'s\' ]]> tab\tline\nreturn\r end\u0007';
    const text = escapeXmlText(value);
    const attribute = escapeXmlAttribute(value);
    expect(text).not.toMatch(/<|]]>/);
    expect(text).not.toContain('\u0007');
    expect(attribute).not.toMatch(/["'<\t\n\r]/);
    const root = parseXml(`<a v="${attribute}" w='${attribute}'>${text}</a>`);
    const expected = value.replace('\u0007', '');
    expect(root.text).toBe(expected);
    expect(root.attributes.v).toBe(expected);
    expect(root.attributes.w).toBe(expected);
  });
});
