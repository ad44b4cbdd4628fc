import { describe, expect, it } from 'vitest';
import { parseXml } from '../../../plugin-sdk/src/xml/index.ts';

// parseXml's streaming option, which format readers (XSPF) use to convert records as they close.
describe('parseXml onElement', () => {
  const doc = '<a><list><item n="1"><v>x</v></item><skip/><item n="2"/></list><tail>t</tail></a>';

  it('reports each element as it closes, children first, with its open ancestors', () => {
    const seen: string[] = [];
    parseXml(doc, {
      onElement: (element, path) => {
        seen.push(`${path.map((open) => open.name).join('/')}>${element.name}`);
        return true;
      },
    });
    expect(seen).toEqual(['a/list/item>v', 'a/list>item', 'a/list>skip', 'a/list>item', 'a>list', 'a>tail', '>a']);
  });

  it('drops an element from its parent when the callback returns false, and always returns the root', () => {
    const items: string[] = [];
    const root = parseXml(doc, {
      onElement: (element, path) => {
        if (path.at(-1)?.name !== 'list') return true;
        if (element.name === 'item') items.push(element.attributes.n ?? '');
        return false;
      },
    });
    expect(items).toEqual(['1', '2']);
    expect(root.children.map((child) => child.name)).toEqual(['list', 'tail']);
    expect(root.children[0]?.children).toEqual([]);
    expect(parseXml('<r/>', { onElement: () => false }).name).toBe('r');
  });

  it('passes path entries with attributes and positions, and lets exceptions through', () => {
    expect(() =>
      parseXml('<a v="1">\n<b/></a>', {
        onElement: (_element, path) => {
          if (path[0]?.attributes.v === '1' && path[0].line === 1) throw new RangeError('stop');
          return true;
        },
      }),
    ).toThrow(RangeError);
  });
});
