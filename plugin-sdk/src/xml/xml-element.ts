/**
 * The element tree `parseXml` returns: data-oriented XML (playlists, libraries), so elements only.
 * Character data (text and CDATA) of an element's direct children is joined into `text`, in
 * document order; comments and processing instructions are dropped. Every node is frozen.
 */
/** What is known of an element when its start tag has been read: the entries of `onElement`'s path. */
export interface XmlElementStart {
  readonly name: string;
  readonly namespace: string;
  readonly prefix: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly line: number;
  readonly column: number;
}

export interface XmlElement {
  /** Local name (`track` for both `<track>` and `<x:track>`). */
  readonly name: string;
  /** Namespace URI the element is in; `''` when it is in no namespace. */
  readonly namespace: string;
  /** Prefix as written (`''` for none); informative only — compare `namespace`, never the prefix. */
  readonly prefix: string;
  /**
   * Attribute values after entity expansion and XML attribute-value normalization. An attribute
   * without a prefix is keyed by its local name (`version`); a prefixed one by Clark notation
   * (`{http://example.org/ns}local`), so the key does not depend on the prefix a writer chose.
   * Namespace declarations (`xmlns`, `xmlns:*`) are not listed. The object has no prototype.
   */
  readonly attributes: Readonly<Record<string, string>>;
  /** Child elements in document order. */
  readonly children: readonly XmlElement[];
  /** Character data directly inside this element (not its descendants), untrimmed. */
  readonly text: string;
  /** 1-based line and column where the start tag ends, for issue reports. */
  readonly line: number;
  readonly column: number;
}

/** Child elements with this namespace and local name, in document order. */
export function xmlChildren(element: XmlElement, namespace: string, name: string): XmlElement[] {
  return element.children.filter((child) => child.namespace === namespace && child.name === name);
}

/** The first child element with this namespace and local name, or null. */
export function xmlChild(element: XmlElement, namespace: string, name: string): XmlElement | null {
  return element.children.find((child) => child.namespace === namespace && child.name === name) ?? null;
}

/** Clark-notation key of a namespaced attribute in `XmlElement.attributes`. */
export function xmlAttributeKey(namespace: string, name: string): string {
  return namespace === '' ? name : `{${namespace}}${name}`;
}
