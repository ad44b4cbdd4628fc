/**
 * `Artist - Title`, as hand-made lists, `#EXTINF` displays, PLS titles and file names write it:
 * the first hyphen, en dash or em dash with whitespace on both sides splits, so "AC-DC" or "Jay-Z"
 * never split and "Artist - Title - Live" keeps "Title - Live". Without a separator the whole
 * (trimmed) text is the title and the artist is empty.
 *
 * Lists and file names are often **numbered**, and the number is not the artist. Only shapes that
 * are clearly numbering are read as a number (returned as `trackNumber`, never as the artist):
 *
 * - a list number `N.` or `N)` (up to four digits) followed by a space: `1. Queen - Bohemian
 *   Rhapsody`, `2) Queen - X`, `03. Queen - Y`;
 * - a track number before a spaced dash, `NN - `: one or two digits, or a zero-padded number
 *   (`7`, `07`, `12`, `007`): `03 - Daft Punk - Digital Love` (number, artist, title) and
 *   `01 - One More Time` (number and title, no artist). A longer number without a leading zero is
 *   a name: `311 - Amber`, `1975 - …`, `1349 - …` keep their artist;
 * - the same number at the start of the title: `Daft Punk - 02 - Aerodynamic`;
 * - in file names only (`fileName: true`), also the forms rippers write: `07 Title` (WMP and
 *   iTunes: two digits, or zero-padded), `07-Title`, `07.Title`, `07_Title`. A two-digit number
 *   without a leading zero that is followed by `Artist - Title` is part of the artist's name
 *   (`50 Cent - In Da Club`, `10 Years - Wasteland`), while `01 Daft Punk - One More Time` is
 *   numbered.
 *
 * Names that merely start with digits never match ("50 Cent", "2Pac", "10cc", "3 Doors Down" —
 * one digit with only a space after it is not numbering). A bullet (`- `, `* `, `• `) before a
 * list line is dropped. With `exact: true` none of this applies: the text is `artist - title`
 * exactly as a writer joined them (our own M3U exports), split at the first separator only.
 */

const SPACE = /\s/;
const DASHES = '-\u2013\u2014';
const BULLET = /^[-*\u2022\u00b7\u2013\u2014]\s+(?=\S)/;
const LIST_NUMBER = /^(\d{1,4})[.)]\s+(?=\S)/;
/** One or two digits, or a zero-padded number of up to three: what track numbers look like. */
const TRACK_NUMBER = '(0\\d{1,2}|\\d{1,2})';
const DASHED_NUMBER = new RegExp(`^${TRACK_NUMBER}\\s+[-\\u2013\\u2014]\\s+(?=\\S)`);
/** File names: `07-Title`, `07.Title`, `07_Title`, `07 - Title` (with or without spaces). */
const FILE_NUMBER_JOINED = new RegExp(`^${TRACK_NUMBER}\\s*[-\\u2013\\u2014._]\\s*(?=[^\\s\\d])`);
/** File names: `07 Title` (WMP, iTunes): two digits or zero-padded, then a space. */
const FILE_NUMBER_SPACED = /^(0\d{1,2}|\d{2})\s+(?=\S)/;

export interface ArtistTitle {
  readonly artist: string;
  readonly title: string;
  /** The number the text was numbered with (`01 - …`, `3. …`, a file's `07 …`), or null. */
  readonly trackNumber: number | null;
}

export interface SplitOptions {
  /** The text is a file name without directory and extension: ripper numbering is read too. */
  readonly fileName?: boolean;
  /** The text is `artist - title` exactly as written by joining them: no numbering or bullets are read. */
  readonly exact?: boolean;
}

/**
 * The first separator — a dash with whitespace on both sides, with all of that whitespace — as
 * `[start, end)`, or null. One pass: a regular expression (`/\s+[-–—]\s+/`) would retry every
 * position of a long run of spaces, quadratic in the length of the line.
 */
function separator(text: string): { start: number; end: number } | null {
  let spaceFrom = -1;
  for (let index = 0; index < text.length; index++) {
    const char = text.charAt(index);
    if (SPACE.test(char)) {
      if (spaceFrom === -1) spaceFrom = index;
      continue;
    }
    if (spaceFrom !== -1 && DASHES.includes(char) && SPACE.test(text.charAt(index + 1))) {
      let end = index + 1;
      while (end < text.length && SPACE.test(text.charAt(end))) end++;
      return { start: spaceFrom, end };
    }
    spaceFrom = -1;
  }
  return null;
}

function plainSplit(text: string): { artist: string; title: string } {
  const found = separator(text);
  if (found === null) return { artist: '', title: text };
  // The text is trimmed and the separator needs whitespace on both sides, so neither part is empty.
  return { artist: text.slice(0, found.start).trim(), title: text.slice(found.end).trim() };
}

/** The leading number of `text` and what follows it, or null when the text does not start numbered. */
function leadingNumber(text: string, fileName: boolean): { number: number; rest: string } | null {
  const found = LIST_NUMBER.exec(text) ?? DASHED_NUMBER.exec(text) ?? (fileName ? FILE_NUMBER_JOINED.exec(text) : null);
  if (found !== null) return { number: Number(found[1]), rest: text.slice(found[0].length).trim() };
  if (!fileName) return null;
  const spaced = FILE_NUMBER_SPACED.exec(text);
  if (spaced === null) return null;
  const number = spaced[1] as string;
  const rest = text.slice(spaced[0].length).trim();
  // "50 Cent - In Da Club": a number without a leading zero in front of `Artist - Title` is the artist's.
  if (!number.startsWith('0') && separator(rest) !== null) return null;
  return { number: Number(number), rest };
}

export function splitArtistTitle(text: string, options: SplitOptions = {}): ArtistTitle {
  const trimmed = text.trim();
  if (options.exact === true) return { ...plainSplit(trimmed), trackNumber: null };
  const unbulleted = trimmed.replace(BULLET, '');
  const numbered = leadingNumber(unbulleted, options.fileName === true);
  const { artist, title } = plainSplit(numbered?.rest ?? unbulleted);
  if (numbered !== null || artist === '') return { artist, title, trackNumber: numbered?.number ?? null };
  // `Artist - 02 - Title`: the number belongs to the title's side.
  const inTitle = DASHED_NUMBER.exec(title);
  if (inTitle === null) return { artist, title, trackNumber: null };
  return { artist, title: title.slice(inTitle[0].length).trim(), trackNumber: Number(inTitle[1]) };
}
