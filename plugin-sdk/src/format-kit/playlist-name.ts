import { boundedText } from './field-values.ts';
import { LIMITS } from './model-limits.ts';

export const FALLBACK_PLAYLIST_NAME = 'Imported playlist';

/**
 * A playlist without a name of its own is named after the upload's file name: the last path
 * segment (either slash style, since browsers on Windows may send a full path), without its
 * extension, with control characters turned into spaces, cut to the model's bound; `fallback`
 * when that leaves nothing.
 */
export function playlistNameFromFilename(filename: string | null, fallback: string = FALLBACK_PLAYLIST_NAME): string {
  if (filename === null) return fallback;
  // Not `fileStem`: a file name is no URL, so `#` and `?` are part of it ("Mix #2.m3u").
  const base = filename.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  const stem = dot > 0 ? base.slice(0, dot) : base;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed here
  const name = stem.replace(/[\u0000-\u001f\u007f]/g, ' ').trim();
  return name === '' ? fallback : boundedText(name, LIMITS.playlistName).value;
}
