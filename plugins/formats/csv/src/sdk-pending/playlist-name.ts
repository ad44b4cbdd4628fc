// SDK-PENDING: same behaviour as plugins/formats/txt/src/playlist-name.ts. Shared by the format plugins, it belongs in
// the SDK runtime (plugin-sdk/src); until it moves there, this folder is the only duplicate (see README).
import { boundedText } from './field-values.ts';
import { LIMITS } from './model-limits.ts';

export const FALLBACK_PLAYLIST_NAME = 'Imported playlist';

/**
 * A plain list has no name of its own, so the upload's file name gives it one: the last path
 * segment (either slash style, since browsers on Windows may send a full path), without its
 * extension, with control characters turned into spaces.
 */
export function playlistNameFromFilename(filename: string | null): string {
  if (filename === null) return FALLBACK_PLAYLIST_NAME;
  const base = filename.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  const stem = dot > 0 ? base.slice(0, dot) : base;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed here
  const name = stem.replace(/[\u0000-\u001f\u007f]/g, ' ').trim();
  return name === '' ? FALLBACK_PLAYLIST_NAME : boundedText(name, LIMITS.playlistName).value;
}
