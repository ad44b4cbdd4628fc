import type { Manifest } from '@opl/plugin-sdk';
import { readableFormats, readerFor, type FormatChoice } from '../../plugins/format-plugins.ts';
import { contentSignature, sniffFormat } from './format-sniffer.ts';

/** What is known of a file when its reader is chosen. */
export interface FileToRead {
  /** The file's name (an upload's, a path's last part), when it has one. */
  readonly fileName: string | null;
  /** The media type it came with (an upload's Content-Type), when any. */
  readonly mediaType: string | null;
  /** Its first bytes (format-sniffer.ts SNIFF_BYTES are enough). */
  readonly head: Uint8Array;
}

export interface ReaderChoice {
  /** The loaded reader to use, or undefined when none fits. */
  readonly reader: FormatChoice | undefined;
  /** The format the content looks like (declared or guessed), loaded or not: for the refusal's words. */
  readonly sniffed: string | undefined;
}

/**
 * The reader for a file, the same for an upload and for `opl convert`: first what the content
 * declares beyond doubt (an XSPF, WPL or library root, JSPF, `#EXTM3U`, `[playlist]`: people save
 * XSPF as `.xml`, JSPF as `.json`, M3U lists as `.txt`), then the name's extension, then the media
 * type, then (with `guess`) what the content looks like. `opl convert` does not guess: its user
 * can name the format with `--from`, and a wrong guess would convert a file into nonsense.
 */
export function chooseReader(manifests: readonly Manifest[], file: FileToRead, options: { readonly guess: boolean } = { guess: true }): ReaderChoice {
  const declared = contentSignature(file.head);
  const byContent = declared === undefined ? undefined : readerFor(manifests, '', declared);
  if (byContent) return { reader: byContent, sniffed: declared };
  const byName = file.fileName ? readerFor(manifests, file.fileName) : undefined;
  if (byName) return { reader: byName, sniffed: declared };
  const type = file.mediaType?.split(';')[0]?.trim().toLowerCase();
  const byType = type ? readableFormats(manifests).find((format) => format.mediaTypes.includes(type)) : undefined;
  if (byType) return { reader: byType, sniffed: declared };
  const sniffed = declared ?? sniffFormat(file.head);
  if (!options.guess) return { reader: undefined, sniffed };
  return { reader: sniffed === undefined ? undefined : readerFor(manifests, '', sniffed), sniffed };
}
