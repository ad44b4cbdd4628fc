import { utf8SequenceAt } from './utf8-validator.ts';

/**
 * A UTF-8 file with a few bytes of another encoding in it: what a tool that still writes
 * windows-1252 leaves when it appends to (or edits one line of) a UTF-8 playlist. Read whole as
 * windows-1252, every UTF-8 name of it would turn into mojibake ("BjÃ¶rk") to save the few
 * foreign ones; read as UTF-8, those few become U+FFFD. So such a file keeps its UTF-8, and only the
 * bytes that are no part of a well-formed sequence are read as windows-1252 ("Beyonc\xe9" ⇒
 * "Beyoncé").
 *
 * A file is taken for that only when its well-formed multi-byte sequences are at least as many as
 * its stray bytes. A real windows-1252 file has a stray byte for nearly every accented letter, and
 * a pair of its characters that happens to spell a UTF-8 sequence (`É’` is C9 92) is rare, so it
 * stays windows-1252 as a whole.
 */

/** windows-1252's characters for the bytes 0x80–0x9F (WHATWG: the five it leaves undefined are the C1 controls of the same number). */
const WINDOWS_1252_C1 = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';

/**
 * The UTF-8 bytes of the character windows-1252 gives a byte of 0x80 or above (from 0xA0 on,
 * Latin-1's). Written out by hand: the sandbox has no TextEncoder, and these are all in the BMP.
 */
function windows1252Utf8(byte: number): number[] {
  const code = byte < 0xa0 ? WINDOWS_1252_C1.charCodeAt(byte - 0x80) : byte;
  return code < 0x800 ? [0xc0 | (code >> 6), 0x80 | (code & 0x3f)] : [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)];
}

export interface MixedRepair {
  /** The file as well-formed UTF-8: its own sequences kept, each stray byte replaced by the UTF-8 of its windows-1252 character. */
  readonly bytes: Uint8Array;
  /** How many bytes were stray. */
  readonly strayBytes: number;
  /** The line (1-based) of the first stray byte. */
  readonly firstLine: number;
}

/** The repair of bytes that are mostly UTF-8 (see above), or null when they are no such file. */
export function repairMixedUtf8(bytes: Uint8Array): MixedRepair | null {
  const pieces: Uint8Array[] = [];
  let sequences = 0;
  let stray = 0;
  let firstStray = -1;
  let runStart = 0;
  let index = 0;
  while (index < bytes.length) {
    if ((bytes[index] as number) < 0x80) {
      index += 1;
      continue;
    }
    const length = utf8SequenceAt(bytes, index);
    if (length > 0) {
      sequences += 1;
      index += length;
      continue;
    }
    // Each byte of an ill-formed sequence is a character of its own in windows-1252.
    if (firstStray === -1) firstStray = index;
    stray += 1;
    pieces.push(bytes.subarray(runStart, index), Uint8Array.from(windows1252Utf8(bytes[index] as number)));
    index += 1;
    runStart = index;
  }
  if (stray === 0 || sequences < stray) return null;
  pieces.push(bytes.subarray(runStart));
  const repaired = new Uint8Array(pieces.reduce((sum, piece) => sum + piece.length, 0));
  let at = 0;
  for (const piece of pieces) {
    repaired.set(piece, at);
    at += piece.length;
  }
  let firstLine = 1;
  for (let scan = bytes.indexOf(0x0a); scan !== -1 && scan < firstStray; scan = bytes.indexOf(0x0a, scan + 1)) firstLine += 1;
  return { bytes: repaired, strayBytes: stray, firstLine };
}
