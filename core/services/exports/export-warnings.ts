import type { Playlist, Track } from '@opl/plugin-sdk';
import type { ExportFormat, ExportWarning } from '@opl/plugin-sdk/schemas';

/** A playlist chosen for an export, with only its selected tracks. */
export interface SelectedPlaylist {
  /** The id the manifest and warnings name it by: the source's id, else `<import id>#<index>`. */
  id: string;
  playlist: Playlist;
  /** Set when a track selection restricted the playlist. */
  partial: { selected: number; total: number } | null;
}

/** Formats whose files are played from track locations (SPEC "Warning codes": `missing_source_uri`). */
const PLAYABLE_FORMATS: ReadonlySet<ExportFormat> = new Set(['m3u8', 'xspf']);

function isUnsupported(track: Track): boolean {
  return track.is_local || track.media_type !== 'track';
}

function hasProviderUri(track: Track): boolean {
  return Object.values(track.provider_uris).some((uri) => uri.trim() !== '');
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/**
 * The warnings of an export, per playlist in order (SPEC "Warning codes"): `partial_selection`,
 * `empty_playlist`, `unsupported_items`, and for M3U8/XSPF `missing_source_uri`.
 */
export function exportWarnings(selected: readonly SelectedPlaylist[], format: ExportFormat): ExportWarning[] {
  const warnings: ExportWarning[] = [];
  for (const { id, playlist, partial } of selected) {
    const name = `"${playlist.name.slice(0, 200)}"`;
    if (partial) {
      warnings.push({ code: 'partial_selection', playlist_id: id, count: partial.selected, message: `Only ${partial.selected} of the ${plural(partial.total, 'track')} of ${name} were selected and exported.` });
    }
    if (playlist.tracks.length === 0) {
      warnings.push({ code: 'empty_playlist', playlist_id: id, count: 0, message: partial ? `The selection of ${name} has no tracks; the file holds the playlist's details only.` : `${name} has no tracks; the file holds the playlist's details only.` });
      continue;
    }
    const unsupported = playlist.tracks.filter(isUnsupported);
    if (unsupported.length > 0) {
      const kinds = [...new Set(unsupported.map((track) => (track.is_local ? 'local_file' : track.media_type)))].join(', ');
      warnings.push({ code: 'unsupported_items', playlist_id: id, count: unsupported.length, message: `${name} holds ${plural(unsupported.length, 'item')} that streaming services cannot play or migrate (${kinds}); they are exported as they are.` });
    }
    if (PLAYABLE_FORMATS.has(format)) {
      const missing = playlist.tracks.filter((track) => !hasProviderUri(track)).length;
      if (missing > 0) {
        warnings.push({ code: 'missing_source_uri', playlist_id: id, count: missing, message: `${plural(missing, 'track')} of ${name} have no provider link, so a player cannot open them from this ${format} file.` });
      }
    }
  }
  return warnings;
}
