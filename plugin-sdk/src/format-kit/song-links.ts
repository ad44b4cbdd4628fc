/**
 * Song pages of the music services whose links people paste and keep in playlists, other than the
 * two official providers (a Spotify or TIDAL track link is read as that provider's URI by
 * `classifyLocation`): Deezer, YouTube, YouTube Music and Apple Music.
 *
 * Such a link names one song even when the entry around it says nothing else, so readers keep it
 * as a migratable entry with the link as its location instead of "an address naming no song".
 * The link itself stays as written: only the target's own plugin knows its links (its
 * `validateUri` decides at migration time whether the link is one of its songs), and a migration
 * to another service says it has nothing to search by. What is recognised here is deliberately
 * narrow — the song shapes each service documents, with its ids — so an album, artist or
 * playlist page, a search page or a channel is never taken for a song:
 * - Deezer: `https://www.deezer.com/[lang/]track/<numeric id>`;
 * - YouTube Music: `https://music.youtube.com/watch?v=<11-character id>` (other query parameters,
 *   such as `list` or `si`, may come before or after);
 * - YouTube: `https://{www.|m.}youtube.com/watch?v=<id>`, `https://youtu.be/<id>`;
 * - Apple Music: `https://music.apple.com/<storefront>/song/[<name>/]<numeric id>` and an album
 *   page that names one of its songs (`…/album/<name>/<id>?i=<numeric song id>`); also on
 *   `geo.music.apple.com` and `itunes.apple.com`.
 * The provider keys are the first-party plugins' ids.
 */

const DEEZER_SONG = /^https?:\/\/(?:www\.)?deezer\.com\/(?:[a-z]{2}(?:-[a-z]{2})?\/)?track\/[1-9]\d{0,19}\/?(?:[?#]\S*)?$/i;
const YTMUSIC_SONG = /^https?:\/\/music\.youtube\.com\/watch\?(?:[^#\s]*&)?v=[A-Za-z0-9_-]{11}(?:[&#]\S*)?$/i;
const YOUTUBE_WATCH = /^https?:\/\/(?:www\.|m\.)?youtube\.com\/watch\?(?:[^#\s]*&)?v=[A-Za-z0-9_-]{11}(?:[&#]\S*)?$/i;
const YOUTUBE_SHORT = /^https?:\/\/youtu\.be\/[A-Za-z0-9_-]{11}\/?(?:[?#]\S*)?$/i;
const APPLE_SONG = /^https?:\/\/(?:music|geo\.music|itunes)\.apple\.com\/(?:[a-z]{2}\/)?song\/(?:[^/?#\s]+\/)?(?:id)?\d{1,20}\/?(?:[?#]\S*)?$/i;
const APPLE_ALBUM_SONG = /^https?:\/\/(?:music|geo\.music|itunes)\.apple\.com\/(?:[a-z]{2}\/)?album\/(?:[^/?#\s]+\/)?(?:id)?\d{1,20}\/?\?(?:[^#\s]*&)?i=\d{1,20}(?:[&#]\S*)?$/i;

/** The longest link read as a song page: longer text is no link a service hands out. */
const MAX_LINK = 2_000;

/** The service whose song page `url` is (`deezer`, `ytmusic`, `youtube`, `applemusic`), or null. */
export function songLinkService(url: string): string | null {
  if (url.length > MAX_LINK) return null;
  if (DEEZER_SONG.test(url)) return 'deezer';
  if (YTMUSIC_SONG.test(url)) return 'ytmusic';
  if (YOUTUBE_WATCH.test(url) || YOUTUBE_SHORT.test(url)) return 'youtube';
  if (APPLE_SONG.test(url) || APPLE_ALBUM_SONG.test(url)) return 'applemusic';
  return null;
}
