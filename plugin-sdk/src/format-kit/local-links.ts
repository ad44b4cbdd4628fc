import type { TrackInput } from '../model.schema.ts';
import { LOCAL_FILE_REASON } from './field-values.ts';
import { classifyLocation } from './locations.ts';

/** A link cell that names a file on the listener's device: a `file:` URL, an absolute, drive or UNC path, or a relative path to a media file. */
const FILE_LIKE = /^(?:file:|\/|\\\\|[A-Za-z]:[\\/])|\.(?:mp3|m4a|aac|flac|alac|ogg|oga|opus|wav|aiff?|wma|ape|wv|mpc|dsf|mka|mp4|m4v|mkv|webm)$/i;

/**
 * A row whose link cell names a file (`file:///home/u/a%20b.mp3`, `C:\Music\a.mp3`) is a local
 * file, as the M3U, PLS, WPL and XSPF readers read the same location: `is_local`, not migrated,
 * `metadata.local_path` the path it names (a `file:` URL percent-decoded), `metadata.source_uri`
 * kept as written. The SDK's track table keeps such a cell only as `source_uri` (it knows the
 * Spotify local-file URI only), so a reader of track tables (CSV, TXT) passes the rows it read
 * through here. The file is never opened.
 */
export function markLocalFiles(tracks: readonly TrackInput[]): void {
  for (const track of tracks) {
    const uri = track.metadata?.source_uri;
    if (typeof uri !== 'string' || track.is_local === true || track.is_migratable === false || !FILE_LIKE.test(uri)) continue;
    if (Object.keys(track.provider_uris ?? {}).length > 0) continue;
    const found = classifyLocation(uri);
    if (found.kind !== 'local') continue;
    Object.assign(track, { is_local: true, media_type: 'local_file', is_migratable: false, unsupported_reason: LOCAL_FILE_REASON, metadata: { ...track.metadata, local_path: found.path } });
  }
}
