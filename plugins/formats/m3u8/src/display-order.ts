import { formatKit, type TrackInput } from '@opl/plugin-sdk';

/**
 * Which way round an `#EXTINF` display names its song. Every player writes `Artist - Title`,
 * except iTunes and Apple Music, whose "Export Playlist…" writes `Title - Artist`
 * (`#EXTINF:263,Paranoid Android - Radiohead`). Nothing in the file says which program wrote it,
 * but the location does: iTunes files a song as `…/<Artist>/<Album>/<NN> <Title>.<ext>`, and most
 * libraries are laid out so. An entry's path votes title first or artist first when it says one
 * and not the other (see `DisplayOrder` for how the file decides):
 * - title first: the text before the last separator is the file's name (after its track number),
 *   or the text after it is the folder above the album's;
 * - artist first: the text after the first separator is the file's name, or the text before it
 *   is that folder.
 * iTunes cuts long file and folder names and replaces characters a file name cannot hold, so names
 * are compared by their letters and digits only, and a long name on disk may be the start of the
 * display's text.
 */

/** A name on disk at least this long (letters and digits) may be the cut start of the display's text. */
const CUT_NAME_MIN = 15;
/** Shorter names (`a.mp3`, a folder `X`) match too much by chance to say anything. */
const NAME_MIN = 3;
/** `1-02 Title` (disc and track, iTunes), `02 Title`, `02-Title`, `02. Title`. */
const FILE_NUMBER = /^(?:\d{1,2}-)?\d{1,3}(?:\s*[-._]\s*|\s+)(?=\S)/;
const SEPARATOR = /\s[-\u2013\u2014]\s/g;

function key(text: string): string {
  return text.normalize('NFC').toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
}

/** Whether a file or folder name stands for the display's `text` (equal, or cut from it). */
function names(onDisk: string | null, text: string): boolean {
  if (onDisk === null) return false;
  const disk = key(onDisk);
  const shown = key(text);
  if (disk.length < NAME_MIN || shown === '') return false;
  return disk === shown || (disk.length >= CUT_NAME_MIN && shown.startsWith(disk));
}

/** `[before, after]` the last separator of the display, or null without one. */
function lastSplit(display: string): [string, string] | null {
  let last: RegExpExecArray | null = null;
  for (const match of display.matchAll(SEPARATOR)) last = match;
  if (last === null) return null;
  return [display.slice(0, last.index).trim(), display.slice(last.index + last[0].length).trim()];
}

/** What one entry's local path says about the order of its display. */
type Vote = 'title-first' | 'artist-first' | null;

function vote(reversed: readonly [string, string], firstSplit: formatKit.ArtistTitle, path: string): Vote {
  const segments = path.split(/[\\/]+/).filter((segment) => segment !== '');
  const file = formatKit.fileStem(segments.at(-1) ?? '').replace(FILE_NUMBER, '');
  const artistFolder = segments.length >= 3 ? (segments.at(-3) as string) : null;
  const [title, artist] = reversed;
  const saysTitleFirst = names(file, title) || names(artistFolder, artist);
  const saysArtistFirst = names(file, firstSplit.title) || names(artistFolder, firstSplit.artist);
  if (saysTitleFirst === saysArtistFirst) return null;
  return saysTitleFirst ? 'title-first' : 'artist-first';
}

/**
 * Collects, while a file is read, the entries at local paths whose display has a separator, and
 * the votes of their paths. A file is written by one program, so the order is decided for the
 * whole file: when more entries say title first than artist first, every such entry is turned
 * round (also those whose path says nothing: iTunes wrote them all so).
 */
export class DisplayOrder {
  readonly #entries: { readonly track: TrackInput; readonly artist: string; readonly title: string }[] = [];
  #titleFirst = 0;
  #artistFirst = 0;

  /** `firstSplit` is the usual `Artist - Title` reading of `display`, already in `track`. */
  note(track: TrackInput, display: string, firstSplit: formatKit.ArtistTitle, path: string): void {
    if (firstSplit.artist === '' || firstSplit.trackNumber !== null) return;
    const reversed = lastSplit(display.trim());
    if (reversed === null) return;
    const said = vote(reversed, firstSplit, path);
    if (said === 'title-first') this.#titleFirst += 1;
    else if (said === 'artist-first') this.#artistFirst += 1;
    this.#entries.push({ track, title: reversed[0], artist: reversed[1] });
  }

  /** Turns the noted entries round when the file is title first. */
  apply(): void {
    if (this.#titleFirst <= this.#artistFirst) return;
    for (const { track, artist, title } of this.#entries) {
      track.artist = formatKit.boundedText(artist, formatKit.LIMITS.title).value;
      track.title = formatKit.boundedText(title, formatKit.LIMITS.title).value;
    }
  }
}
