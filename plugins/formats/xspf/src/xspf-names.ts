/** Names this format is built on: the XSPF namespace and the Open Playlist v1 extension. */

/** XSPF 1 (and 0): the namespace every element of the format is in. */
export const XSPF_NAMESPACE = 'http://xspf.org/ns/0/';

/**
 * The Open Playlist XSPF extension, version 1: both the namespace of its elements (prefix `opl`)
 * and the `application` of the `<extension>` elements that hold them. A later incompatible
 * version gets a new URI; readers ignore extensions they do not know.
 */
export const OPL_NAMESPACE = 'https://open-playlist.org/ns/xspf/1';

/**
 * Why a local-file track is not migrated: word for word what the M3U, PLS and WPL readers say for a
 * playlist entry naming a file (their `LOCAL_FILE_REASON`; the SDK has no shared constant for it,
 * and `formatKit.LOCAL_FILE_REASON` is the CSV readers' text for a Spotify local file).
 */
export const LOCAL_FILE_REASON = 'local file: the playlist names a file on the device it was made on; the file is not opened or uploaded';
