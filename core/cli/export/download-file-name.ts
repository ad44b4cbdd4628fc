import { basename, dirname, join, resolve, sep } from 'node:path';

/**
 * The local name of a download, from the engine's Content-Disposition. The header is read as
 * untrusted input: only a base name is kept (no directories, no traversal, no control or
 * reserved characters, no Windows device names), so the file always lands inside the chosen
 * directory.
 */

const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;
/**
 * Most UTF-8 bytes of a name. File systems take 255 (ext4, APFS, NTFS in UTF-16 units), and the
 * download first lands in `.<name>.<pid>.partial` beside it: 200 leaves room for that. The engine's
 * `filename*` may hold 150 characters, which is 450 bytes of CJK or 600 of emoji.
 */
const MAX_NAME_BYTES = 200;
/** A short extension, kept whole when a long name is cut. */
const EXTENSION = /\.[A-Za-z0-9]{1,8}$/;
/** Bidirectional embeddings, overrides, isolates and marks: U+202E shows "gnp.exe.csv" as "vsc.exe.png". */
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** The `filename*` (RFC 5987, UTF-8) or else the `filename` parameter; null when there is none. */
export function dispositionFileName(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // A broken encoding falls back to the plain parameter.
    }
  }
  const quoted = /filename\s*=\s*"((?:[^"\\]|\\.)*)"/.exec(header);
  if (quoted?.[1] !== undefined) return quoted[1].replace(/\\(.)/g, '$1');
  const bare = /filename\s*=\s*([^;\s]+)/.exec(header);
  return bare?.[1] ?? null;
}

/** `name` in at most `max` UTF-8 bytes, cut between characters before a short extension, which stays. */
function fitBytes(name: string, max: number): string {
  if (Buffer.byteLength(name) <= max) return name;
  const extension = EXTENSION.exec(name)?.[0] ?? '';
  let bytes = Buffer.byteLength(extension);
  let stem = '';
  for (const character of name.slice(0, name.length - extension.length)) {
    bytes += Buffer.byteLength(character);
    if (bytes > max) break;
    stem += character;
  }
  return `${stem.replace(/[.\s]+$/, '')}${extension}`;
}

/** A safe base name, or `fallback` when nothing usable is left. */
export function safeDownloadName(raw: string | null, fallback: string): string {
  if (raw === null) return fallback;
  const last = raw.toWellFormed().split(/[/\\]/).pop() ?? '';
  const cleaned = fitBytes(
    last
      .replace(BIDI_CONTROLS, '')
      // C0 and C1 controls (U+009B is a terminal's CSI), the Unicode line separators, and what Windows reserves.
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029<>:"|?*]/g, '_')
      .replace(/^[.\s]+/, '')
      .replace(/[.\s]+$/, ''),
    MAX_NAME_BYTES,
  );
  if (cleaned === '' || cleaned === '.' || cleaned === '..' || cleaned.startsWith('.')) return fallback;
  return WINDOWS_RESERVED.test(cleaned) ? `_${cleaned}` : cleaned;
}

/** `name` inside `directory`; throws if the result would be anywhere else (it never should). */
export function insideDirectory(directory: string, name: string): string {
  const base = resolve(directory);
  const path = resolve(base, basename(name));
  if (dirname(path) !== base || !path.startsWith(base.endsWith(sep) ? base : `${base}${sep}`)) throw new Error(`refusing to write ${JSON.stringify(name)} outside ${base}`);
  return path;
}

/** The extension a content type stands for, for a download that names no file. */
export function extensionOf(contentType: string | null): string {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  const known: Record<string, string> = {
    'text/csv': '.csv',
    'text/plain': '.txt',
    'application/vnd.apple.mpegurl': '.m3u8',
    'application/xspf+xml': '.xspf',
    'application/vnd.open-playlist+json': '.json',
    'application/zip': '.zip',
  };
  return (type && known[type]) ?? '';
}

/**
 * Why the download may not go to the file `-o` names; null when it may. Several playlists come as
 * a ZIP archive and one as the file itself, which the CLI learns only from the answer: an archive
 * saved as `all.csv`, or a CSV saved as `x.zip`, would open as garbage later. Refused before
 * anything is written, naming the file to ask for instead.
 */
export function downloadNameProblem(path: string, contentType: string | null, format: string): string | null {
  const isZip = extensionOf(contentType) === '.zip';
  const named = basename(path);
  const namedZip = /\.zip$/i.test(named);
  if (isZip === namedZip) return null;
  const stem = named.replace(/\.[^.]*$/, '') || named;
  const directory = dirname(path);
  if (isZip) {
    return `The export holds several playlists, so it is a ZIP archive (one ${format} file per playlist and manifest.json), and ${named} does not end in .zip. Nothing was written: choose -o ${join(directory, `${stem}.zip`)}, or -o ${directory}${sep} to save it under the engine's name.`;
  }
  const extension = extensionOf(contentType) || `.${format}`;
  return `The export is one playlist, so it is a single ${format} file, not a ZIP archive, and ${named} ends in .zip. Nothing was written: choose -o ${join(directory, `${stem}${extension}`)}, or -o ${directory}${sep} to save it under the engine's name.`;
}
