/**
 * `Artist - Title`, as hand-made lists, `#EXTINF` displays, PLS titles and file names write it:
 * the first hyphen, en dash or em dash with whitespace on both sides splits, so "AC-DC" or "Jay-Z"
 * never split and "Artist - Title - Live" keeps "Title - Live". Without a separator the whole
 * (trimmed) text is the title and the artist is empty.
 */

const SEPARATOR = /\s+[-\u2013\u2014]\s+/;

export interface ArtistTitle {
  readonly artist: string;
  readonly title: string;
}

export function splitArtistTitle(text: string): ArtistTitle {
  const trimmed = text.trim();
  const match = SEPARATOR.exec(trimmed);
  if (match === null) return { artist: '', title: trimmed };
  // The text is trimmed and the separator needs whitespace on both sides, so neither part is empty.
  return { artist: trimmed.slice(0, match.index).trim(), title: trimmed.slice(match.index + match[0].length).trim() };
}
