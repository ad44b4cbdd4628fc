import type { Track } from '@opl/plugin-sdk';
import { normalizeIsrc } from '../matching/match-keys.ts';

/**
 * A cached playlist's compact track digest: what the Library workspace compares of each track —
 * its provider id, its ISRC (normalized), whether it can be migrated and whether it is a local
 * file — written beside the cached playlist whenever its tracks are cached, so building the
 * workspace reads a few bytes per track instead of whole track records. Identities are NOT stored:
 * the identity graph changes without the playlist changing (a confirmed review, a resolved diff),
 * so the workspace resolves the digest's ids and ISRCs against the graph when it is built.
 *
 * Text, one line per track after a version line: `<id>\t<ISRC>\t<flags>`, flags a digit
 * (1: migratable, 2: local file). A local file's id is left out (it can be a file path, and the
 * graph never links local files). `%`, tab and newline in an id are percent-escaped.
 */

export const TRACK_DIGEST_VERSION = 'd1';

export const DIGEST_MIGRATABLE = 1;
export const DIGEST_LOCAL = 2;

/** A playlist's tracks, column by column (one index per track, in playlist order). */
export interface TrackColumns {
  /** Provider track id; null for a local file or a track without one. */
  ids: (string | null)[];
  /** Normalized ISRC (see `normalizeIsrc`); null when it has none. */
  isrcs: (string | null)[];
  /** `DIGEST_MIGRATABLE` | `DIGEST_LOCAL` bits. */
  flags: Uint8Array;
}

type DigestTrack = Pick<Track, 'id' | 'isrc'> & { is_migratable?: boolean | null; is_local?: boolean | null };

const escapeId = (id: string) => (/[%\t\n]/.test(id) ? id.replace(/%/g, '%25').replace(/\t/g, '%09').replace(/\n/g, '%0A') : id);
const unescapeId = (id: string) => (id.includes('%') ? id.replace(/%0A/g, '\n').replace(/%09/g, '\t').replace(/%25/g, '%') : id);

export function encodeTrackDigest(tracks: readonly DigestTrack[]): string {
  const lines = [TRACK_DIGEST_VERSION];
  for (const track of tracks) {
    const local = track.is_local === true;
    const flags = (track.is_migratable === false ? 0 : DIGEST_MIGRATABLE) | (local ? DIGEST_LOCAL : 0);
    lines.push(`${local || !track.id ? '' : escapeId(track.id)}\t${normalizeIsrc(track.isrc) ?? ''}\t${flags}`);
  }
  return lines.join('\n');
}

/**
 * Calls `visit` with each track of the digest, in order, without keeping any of them (a workspace
 * build interns ids as it goes). False when the digest is of another format version, or damaged.
 */
export function forEachDigestTrack(digest: string, visit: (id: string | null, isrc: string | null, flags: number) => void): boolean {
  const header = digest.indexOf('\n');
  if ((header < 0 ? digest : digest.slice(0, header)) !== TRACK_DIGEST_VERSION) return false;
  let start = header < 0 ? digest.length : header + 1;
  while (start < digest.length) {
    const newline = digest.indexOf('\n', start);
    const end = newline < 0 ? digest.length : newline;
    const first = digest.indexOf('\t', start);
    const second = first < 0 ? -1 : digest.indexOf('\t', first + 1);
    if (first < 0 || second < 0 || second > end) return false;
    visit(first === start ? null : unescapeId(digest.slice(start, first)), second === first + 1 ? null : digest.slice(first + 1, second), digest.charCodeAt(second + 1) - 48);
    start = end + 1;
  }
  return true;
}

/** The digest's tracks; null when it is of another format version (read the cached playlist instead). */
export function decodeTrackDigest(digest: string): TrackColumns | null {
  const columns: TrackColumns = { ids: [], isrcs: [], flags: new Uint8Array(0) };
  const flags: number[] = [];
  const ok = forEachDigestTrack(digest, (id, isrc, flag) => {
    columns.ids.push(id);
    columns.isrcs.push(isrc);
    flags.push(flag);
  });
  return ok ? { ...columns, flags: Uint8Array.from(flags) } : null;
}

/** The same columns from the compact rows `[id, isrc, migratable, local]` (a cache written before digests, an import). */
export function columnsOfCompact(rows: readonly (readonly [string | null, string | null, boolean, boolean])[]): TrackColumns {
  const columns: TrackColumns = { ids: new Array<string | null>(rows.length), isrcs: new Array<string | null>(rows.length), flags: new Uint8Array(rows.length) };
  rows.forEach(([id, isrc, migratable, local], index) => {
    columns.ids[index] = local || !id ? null : id;
    columns.isrcs[index] = normalizeIsrc(isrc);
    columns.flags[index] = (migratable ? DIGEST_MIGRATABLE : 0) | (local ? DIGEST_LOCAL : 0);
  });
  return columns;
}
