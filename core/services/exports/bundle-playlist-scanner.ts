/**
 * Finds the one playlist object of a one-playlist bundle v1 text as it streams by, without parsing
 * it: a byte-level scan of JSON's structure (nesting, strings and their escapes, the top-level
 * keys). Multi-byte UTF-8 sequences never contain the ASCII bytes it looks at, so scanning bytes
 * is exact. `push` returns the slices of each chunk that belong to the playlist object, in order;
 * `end` says what was wrong with the document's shape, or null when it held exactly one playlist
 * object under a top-level `"playlists"` array.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;
const PLAYLISTS_KEY = Buffer.from('playlists');

function isWhitespace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

export class BundlePlaylistScanner {
  #depth = 0;
  #inString = false;
  #escaped = false;
  /** At depth 1 (the bundle object): true while the next string is a key. */
  #expectKey = false;
  /** Bytes of the top-level key being read (only ever compared with `playlists`). */
  #key: number[] | null = null;
  #lastKey = '';
  #inPlaylists = false;
  #playlistsSeen = 0;
  #playlistCount = 0;
  #copying = false;
  #started = false;
  #problem: string | null = null;

  push(chunk: Buffer): Buffer[] {
    if (this.#problem !== null) return [];
    const pieces: Buffer[] = [];
    let copyFrom = this.#copying ? 0 : -1;
    for (let index = 0; index < chunk.length; index++) {
      const byte = chunk[index]!;
      if (this.#inString) {
        if (this.#escaped) this.#escaped = false;
        else if (byte === BACKSLASH) this.#escaped = true;
        else if (byte === QUOTE) {
          this.#inString = false;
          if (this.#key !== null) {
            this.#lastKey = Buffer.from(this.#key).equals(PLAYLISTS_KEY) ? 'playlists' : 'other';
            this.#key = null;
          }
          continue;
        }
        // A key longer than `playlists` cannot be it: stop collecting its bytes.
        if (this.#key !== null && this.#key.length <= PLAYLISTS_KEY.length) this.#key.push(byte);
        continue;
      }
      if (isWhitespace(byte)) continue;
      if (!this.#started) {
        if (byte !== OPEN_OBJECT) return this.#fail('the document is not a JSON object');
        this.#started = true;
      } else if (this.#depth === 0) {
        return this.#fail('there is text after the document');
      }
      if (this.#inPlaylists && this.#depth === 2 && !this.#copying && byte !== COMMA) {
        if (byte !== OPEN_OBJECT && byte !== CLOSE_ARRAY) return this.#fail('a playlist is not a JSON object');
        if (byte === OPEN_OBJECT) {
          this.#playlistCount += 1;
          if (this.#playlistCount > 1) return this.#fail('it holds more than one playlist');
          this.#copying = true;
          copyFrom = index;
        }
      }
      switch (byte) {
        case QUOTE:
          this.#inString = true;
          if (this.#depth === 1 && this.#expectKey) this.#key = [];
          break;
        case OPEN_OBJECT:
        case OPEN_ARRAY:
          this.#depth += 1;
          if (this.#depth === 1) this.#expectKey = true;
          if (this.#depth === 2 && byte === OPEN_ARRAY && this.#lastKey === 'playlists') {
            this.#inPlaylists = true;
            this.#playlistsSeen += 1;
          }
          break;
        case CLOSE_OBJECT:
        case CLOSE_ARRAY:
          this.#depth -= 1;
          if (this.#depth < 0) return this.#fail('its brackets do not balance');
          if (this.#depth === 2 && this.#copying) {
            this.#copying = false;
            pieces.push(chunk.subarray(copyFrom, index + 1));
            copyFrom = -1;
          }
          if (this.#depth === 1) this.#inPlaylists = false;
          break;
        case COLON:
          if (this.#depth === 1) this.#expectKey = false;
          break;
        case COMMA:
          if (this.#depth === 1) this.#expectKey = true;
          break;
        default:
          break;
      }
    }
    if (this.#copying && copyFrom >= 0) pieces.push(chunk.subarray(copyFrom));
    return pieces;
  }

  end(): string | null {
    if (this.#problem !== null) return this.#problem;
    if (!this.#started || this.#depth !== 0 || this.#inString) return 'the document ends before it is complete';
    if (this.#playlistsSeen !== 1) return 'it has no single "playlists" array';
    if (this.#playlistCount !== 1) return `it holds ${this.#playlistCount} playlists`;
    return null;
  }

  #fail(problem: string): Buffer[] {
    this.#problem = problem;
    this.#copying = false;
    return [];
  }
}
