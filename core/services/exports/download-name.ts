import { isWindowsReservedName, namesWindowsDevice } from '../../domain/export-file-names.ts';

/** The Unicode download name of an export (`filename*`), next to the ASCII one the domain rules make. */

/** Longest `filename*` base, in characters (code points). */
const MAX_UNICODE_NAME = 150;

/**
 * A name for `filename*`: the original Unicode text without anything a file system would read as
 * a path, and with the same Windows rules as the ASCII `filename` (browsers prefer `filename*`).
 * Nor may it hide what the file is: bidirectional embeddings, overrides, isolates and marks go
 * (U+202E shows "gnp.exe.csv" as "vsc.exe.png"), and C1 controls and the Unicode line separators
 * are replaced like the C0 ones (U+009B is a terminal's CSI).
 */
export function unicodeName(name: string, fallback: string): string {
  const cleaned = Array.from(
    name
      .toWellFormed() // an unpaired surrogate cannot be percent-encoded as UTF-8
      .replace(/[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]+/g, '')
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029/\\:*?"<>|]+/g, '_')
      .replace(/\.{2,}/g, '.')
      .replace(/^[.\s]+/, ''),
  )
    .slice(0, MAX_UNICODE_NAME) // by code point: never half of a surrogate pair
    .join('')
    .replace(/[.\s]+$/, '');
  if (cleaned === '') return fallback;
  return isWindowsReservedName(cleaned) || namesWindowsDevice(name) ? `_${cleaned}` : cleaned;
}

/** A file name without its extension (of up to five letters or digits). */
export function withoutExtension(name: string): string {
  return name.replace(/\.[A-Za-z0-9]{1,5}$/, '');
}
