/**
 * Canonical JSON: the one byte sequence a signature covers. Object keys are sorted recursively
 * (by UTF-16 code unit, like `Array.prototype.sort`), there is no whitespace, and strings are
 * escaped exactly as `JSON.stringify` escapes them. Anything JSON cannot carry faithfully
 * (NaN, ±Infinity, undefined inside arrays, functions, bigints, class instances) is refused rather
 * than silently changed, so two parties can never sign or hash different meanings of "the same"
 * document.
 */

export class CanonicalJsonError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CanonicalJsonError';
  }
}

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

function write(value: unknown, at: string, out: string[]): void {
  if (value === null) {
    out.push('null');
    return;
  }
  switch (typeof value) {
    case 'string':
      out.push(JSON.stringify(value));
      return;
    case 'boolean':
      out.push(value ? 'true' : 'false');
      return;
    case 'number':
      if (!Number.isFinite(value)) throw new CanonicalJsonError(`${at} is ${String(value)}, which JSON cannot represent`);
      out.push(JSON.stringify(value));
      return;
    case 'object': {
      if (Array.isArray(value)) {
        out.push('[');
        value.forEach((item: unknown, index) => {
          if (index > 0) out.push(',');
          if (item === undefined) throw new CanonicalJsonError(`${at}[${index}] is undefined`);
          write(item, `${at}[${index}]`, out);
        });
        out.push(']');
        return;
      }
      if (!isPlainObject(value)) throw new CanonicalJsonError(`${at} is a ${value.constructor?.name ?? 'non-plain'} object, not plain JSON data`);
      const record = value as Record<string, unknown>;
      // Undefined properties are absent, as in JSON.stringify: optional fields may be left unset.
      const keys = Object.keys(record)
        .filter((key) => record[key] !== undefined)
        .sort();
      out.push('{');
      keys.forEach((key, index) => {
        if (index > 0) out.push(',');
        out.push(JSON.stringify(key), ':');
        write(record[key], `${at}.${key}`, out);
      });
      out.push('}');
      return;
    }
    default:
      throw new CanonicalJsonError(`${at} is a ${typeof value}, which JSON cannot represent`);
  }
}

/** The canonical JSON text of `value`; throws `CanonicalJsonError` for anything not plain JSON data. */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  write(value, '$', out);
  return out.join('');
}

/** The canonical JSON of `value` as UTF-8 bytes: what signatures and hashes are computed over. */
export function canonicalJsonBytes(value: unknown): Uint8Array {
  return new TextEncoder().encode(canonicalJson(value));
}
