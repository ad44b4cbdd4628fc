/** Names this format is built on: the XSPF namespace and the Open Playlist v1 extension. */

/** XSPF 1 (and 0): the namespace every element of the format is in. */
export const XSPF_NAMESPACE = 'http://xspf.org/ns/0/';

/**
 * The Open Playlist XSPF extension, version 1: both the namespace of its elements (prefix `opl`)
 * and the `application` of the `<extension>` elements that hold them. A later incompatible
 * version gets a new URI; readers ignore extensions they do not know.
 */
export const OPL_NAMESPACE = 'https://open-playlist.org/ns/xspf/1';

export const LOCAL_FILE_REASON = 'local file: it exists only on the device that added it, not on the streaming service';
