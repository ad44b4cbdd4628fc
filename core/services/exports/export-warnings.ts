import { formatKit, type Playlist, type Track } from '@opl/plugin-sdk';
import type { ExportFormat, ExportWarning } from '@opl/plugin-sdk/schemas';
import { clip } from './export-source.ts';

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

const WEB_URL = /^https?:\/\/\S+$/i;

function isWebUrl(value: unknown): boolean {
  return typeof value === 'string' && WEB_URL.test(value);
}

/**
 * Whether the M3U8 and XSPF writers have a location a player can open for the track: a provider
 * URI they turn into a web URL (Spotify, TIDAL) or one that is a web URL already, or a web address
 * the track was imported with (an M3U or XSPF location, kept in its metadata). Other providers'
 * URIs (`deezer:track:…`) are kept in the file's metadata but are nothing a player can play, so a
 * track with only those counts as missing its source URI, as one with none does.
 */
function hasPlayableUri(track: Track): boolean {
  if (Object.values(track.provider_uris).some((uri) => formatKit.webUrlOf(uri) !== null || isWebUrl(uri))) return true;
  const { location, locations } = track.metadata;
  return isWebUrl(location) || (Array.isArray(locations) && locations.some(isWebUrl));
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/**
 * The warnings of one exported playlist (SPEC "Warning codes"), counted as its tracks go by a slice
 * at a time, so that no export needs the whole playlist in hand: `partial_selection`,
 * `empty_playlist`, `unsupported_items`, and for M3U8/XSPF `missing_source_uri`.
 */
export class PlaylistWarningTally {
  readonly #id: string;
  readonly #name: string;
  readonly #partial: SelectedPlaylist['partial'];
  readonly #format: ExportFormat;
  #tracks = 0;
  #unsupported = 0;
  readonly #unsupportedKinds = new Set<string>();
  #missing = 0;

  constructor(id: string, playlistName: string, partial: SelectedPlaylist['partial'], format: ExportFormat) {
    this.#id = id;
    this.#name = `"${clip(playlistName, 200)}"`;
    this.#partial = partial;
    this.#format = format;
  }

  /** Tracks counted so far. */
  get tracks(): number {
    return this.#tracks;
  }

  add(tracks: readonly Track[]): void {
    for (const track of tracks) {
      this.#tracks += 1;
      if (isUnsupported(track)) {
        this.#unsupported += 1;
        this.#unsupportedKinds.add(track.is_local ? 'local_file' : track.media_type);
      }
      if (PLAYABLE_FORMATS.has(this.#format) && !hasPlayableUri(track)) this.#missing += 1;
    }
  }

  /** The playlist's warnings once every track was added. */
  warnings(): ExportWarning[] {
    const warnings: ExportWarning[] = [];
    const [id, name, partial, format] = [this.#id, this.#name, this.#partial, this.#format];
    if (partial) {
      warnings.push({ code: 'partial_selection', playlist_id: id, count: partial.selected, message: `Only ${partial.selected} of the ${plural(partial.total, 'track')} of ${name} ${partial.selected === 1 ? 'was' : 'were'} selected and exported.` });
    }
    if (this.#tracks === 0) {
      warnings.push({ code: 'empty_playlist', playlist_id: id, count: 0, message: partial ? `The selection of ${name} has no tracks; the file holds the playlist's details only.` : `${name} has no tracks; the file holds the playlist's details only.` });
      return warnings;
    }
    const unsupported = this.#unsupported;
    if (unsupported > 0) {
      const kinds = [...this.#unsupportedKinds].join(', ');
      warnings.push({ code: 'unsupported_items', playlist_id: id, count: unsupported, message: `${name} holds ${plural(unsupported, 'item')} that streaming services cannot play or migrate (${kinds}); ${unsupported === 1 ? 'it is exported as it is' : 'they are exported as they are'}.` });
    }
    const missing = this.#missing;
    if (missing > 0) {
      warnings.push({ code: 'missing_source_uri', playlist_id: id, count: missing, message: `${plural(missing, 'track')} of ${name} ${missing === 1 ? 'has' : 'have'} no link a player can open (a Spotify or TIDAL track, or a web address), so this ${format} file cannot play ${missing === 1 ? 'it' : 'them'}.` });
    }
    return warnings;
  }
}

/** The warnings of an export of whole playlists, per playlist in order (see `PlaylistWarningTally`). */
export function exportWarnings(selected: readonly SelectedPlaylist[], format: ExportFormat): ExportWarning[] {
  return selected.flatMap(({ id, playlist, partial }) => {
    const tally = new PlaylistWarningTally(id, playlist.name, partial, format);
    tally.add(playlist.tracks);
    return tally.warnings();
  });
}
