/**
 * What each export warning code means, for a download that names codes only (a single file
 * carries them in `X-Open-Playlist-Warning-Codes`; an archive's manifest has full messages).
 */
const WORDS: Record<string, string> = {
  partial_selection: 'only the selected tracks were exported',
  empty_playlist: 'the playlist (or the selected part) has no tracks',
  unsupported_items: 'episodes, videos, local files or unknown media are in it (exported as they are)',
  missing_source_uri: 'some tracks have no link a player can open (a Spotify or TIDAL track, or a web address)',
  playlist_read_failed: 'a playlist could not be read (missing or access denied) and is left out',
  historical_playlist_metadata_partial: 'an older migration kept no playlist details: name and tracks only',
  historical_track_metadata_partial: 'some tracks were rebuilt from the migration record with fewer details',
};

export function warningInWords(code: string): string {
  return WORDS[code] ?? 'see the export for details';
}

/** The codes of a comma-separated header value, without blanks or duplicates. */
export function warningCodes(header: string | null): string[] {
  return [...new Set((header ?? '').split(',').map((code) => code.trim()).filter((code) => /^[a-z_]{1,80}$/.test(code)))];
}
