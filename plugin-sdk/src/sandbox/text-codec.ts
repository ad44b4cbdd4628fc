/**
 * `ctx.decodeText` / `ctx.encodeText` run on the host's TextDecoder/TextEncoder (the isolate has
 * none). Only the encodings playlist files are actually written in are accepted: the WHATWG
 * label resolution maps many aliases, and an allow-list keeps the surface small and predictable.
 */

/** Canonical WHATWG encoding names (what `TextDecoder#encoding` reports) a plugin may ask for. */
export const ALLOWED_ENCODINGS: ReadonlySet<string> = new Set([
  'utf-8',
  'utf-16le',
  'utf-16be',
  'windows-1252',
  'windows-1250',
  'windows-1251',
  'iso-8859-2',
  'iso-8859-15',
  'macintosh',
  'koi8-r',
  'shift_jis',
  'euc-jp',
  'euc-kr',
  'gbk',
  'gb18030',
  'big5',
]);

export class TextCodecError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TextCodecError';
  }
}

const decoders = new Map<string, TextDecoder>();

function decoderFor(label: string): TextDecoder {
  const key = label.trim().toLowerCase();
  const cached = decoders.get(key);
  if (cached) return cached;
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(key);
  } catch {
    throw new TextCodecError(`unknown text encoding "${label.slice(0, 40)}"`);
  }
  if (!ALLOWED_ENCODINGS.has(decoder.encoding)) throw new TextCodecError(`the text encoding "${label.slice(0, 40)}" is not supported`);
  decoders.set(key, decoder);
  return decoder;
}

export function decodeText(bytes: unknown, label: unknown = 'utf-8'): string {
  if (!(bytes instanceof Uint8Array)) throw new TextCodecError('decodeText expects a Uint8Array');
  if (typeof label !== 'string' || label.length > 40) throw new TextCodecError('decodeText expects an encoding label such as "utf-8"');
  return decoderFor(label).decode(bytes);
}

const encoder = new TextEncoder();

export function encodeText(text: unknown): Uint8Array {
  if (typeof text !== 'string') throw new TextCodecError('encodeText expects a string');
  return encoder.encode(text);
}
