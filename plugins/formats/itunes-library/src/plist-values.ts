import { InvalidInput, type XmlElement } from '@opl/plugin-sdk';

/**
 * Reading an XML property list (Apple's plist 1.0) straight from the SDK's element tree, value by
 * value, so every value keeps the line it came from for issue reports. A `<dict>` alternates
 * `<key>` and a value element; scalars are `<string> <integer> <real> <true/> <false/> <date>
 * <data>`, containers `<dict>` and `<array>`.
 */

export const PLIST_DOCTYPE = { name: 'plist', publicId: '-//Apple//DTD PLIST 1.0//EN', systemId: 'http://www.apple.com/DTDs/PropertyList-1.0.dtd' } as const;
/** The same DOCTYPE under Apple's former name: iTunes 11 and older wrote it, so older libraries carry it. */
export const LEGACY_PLIST_DOCTYPE = { ...PLIST_DOCTYPE, publicId: '-//Apple Computer//DTD PLIST 1.0//EN' } as const;

/** A dict's values by key, in document order; a repeated key keeps its first value (plist readers disagree; first is stable). */
export function dictEntries(dict: XmlElement): Map<string, XmlElement> {
  const entries = new Map<string, XmlElement>();
  const children = dict.children;
  for (let index = 0; index + 1 < children.length; index += 2) {
    const key = children[index]!;
    if (key.name !== 'key') throw new InvalidInput(`line ${key.line}: a <dict> entry starts with <${key.name.slice(0, 100)}> instead of <key>: this is not a valid property list`);
    if (!entries.has(key.text)) entries.set(key.text, children[index + 1]!);
  }
  if (children.length % 2 === 1) throw new InvalidInput(`line ${children.at(-1)!.line}: a <dict> ends with a key without a value: this is not a valid property list`);
  return entries;
}

export function isDict(element: XmlElement | undefined): boolean {
  return element?.name === 'dict';
}

export function isArray(element: XmlElement | undefined): boolean {
  return element?.name === 'array';
}

/** `<string>` (or `<date>`) text, else null. */
export function stringValue(element: XmlElement | undefined): string | null {
  return element !== undefined && (element.name === 'string' || element.name === 'date') ? element.text : null;
}

/** A whole `<integer>` within the safe range, else null. */
export function integerValue(element: XmlElement | undefined): number | null {
  if (element?.name !== 'integer') return null;
  const text = element.text.trim();
  return /^-?\d{1,15}$/.test(text) ? Number(text) : null;
}

/** `<true/>` ⇒ true, `<false/>` ⇒ false, else null. */
export function booleanValue(element: XmlElement | undefined): boolean | null {
  if (element?.name === 'true') return true;
  if (element?.name === 'false') return false;
  return null;
}
