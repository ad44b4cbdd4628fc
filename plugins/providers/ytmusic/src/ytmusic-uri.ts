/**
 * YouTube Music links: `https://music.youtube.com/watch?v=<videoId>` (the canonical track URI of
 * this plugin), YouTube's own watch and short links, playlist links (`?list=`), album pages
 * (`/browse/MPREb_…`) and channels (`/channel/UC…`).
 */

export const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;
export const PLAYLIST_ID = /^(?:PL|OLAK5uy_|RD|VL|LM$|SE$)[A-Za-z0-9_-]*$/;

export function watchUri(videoId: string): string {
  return `https://music.youtube.com/watch?v=${videoId}`;
}

export function playlistUri(playlistId: string): string {
  return `https://music.youtube.com/playlist?list=${playlistId}`;
}

export function albumUri(browseId: string): string {
  return `https://music.youtube.com/browse/${browseId}`;
}

export function channelUri(channelId: string): string {
  return `https://music.youtube.com/channel/${channelId}`;
}

export type YtRef = { entity: 'track' | 'playlist' | 'album' | 'artist'; id: string; uri: string };

const HOSTS = new Set(['music.youtube.com', 'www.youtube.com', 'youtube.com', 'm.youtube.com']);
// The sandbox has no URL class: links are split by this pattern (scheme, host, path, query).
const LINK = /^https?:\/\/([A-Za-z0-9.-]+)(\/[^?#]*)?(?:\?([^#]*))?(?:#.*)?$/;

function queryParam(query: string, name: string): string | null {
  for (const pair of query.split('&')) {
    const [key, value = ''] = pair.split('=');
    if (key === name) {
      try {
        return decodeURIComponent(value.replace(/\+/g, ' '));
      } catch {
        return null;
      }
    }
  }
  return null;
}

export function parseYtRef(value: string): YtRef | null {
  const input = value.trim();
  const link = LINK.exec(input);
  if (!link) return null;
  const host = link[1]!.toLowerCase();
  const path = link[2] ?? '/';
  const query = link[3] ?? '';
  if (host === 'youtu.be') {
    const id = path.slice(1);
    return VIDEO_ID.test(id) ? { entity: 'track', id, uri: watchUri(id) } : null;
  }
  if (!HOSTS.has(host)) return null;
  if (path === '/watch') {
    const id = queryParam(query, 'v') ?? '';
    return VIDEO_ID.test(id) ? { entity: 'track', id, uri: watchUri(id) } : null;
  }
  if (path === '/playlist') {
    const raw = queryParam(query, 'list') ?? '';
    const id = raw.startsWith('VL') ? raw.slice(2) : raw;
    return id.length >= 2 && id.length <= 100 && PLAYLIST_ID.test(id) ? { entity: 'playlist', id, uri: playlistUri(id) } : null;
  }
  const album = /^\/browse\/(MPREb_[A-Za-z0-9_-]{5,40})$/.exec(path);
  if (album) return { entity: 'album', id: album[1]!, uri: albumUri(album[1]!) };
  const channel = /^\/channel\/(UC[A-Za-z0-9_-]{22})$/.exec(path);
  if (channel) return { entity: 'artist', id: channel[1]!, uri: channelUri(channel[1]!) };
  return null;
}

/** The videoId a write is about, or null when the URI names no video. */
export function videoIdOf(uri: string): string | null {
  const ref = parseYtRef(uri);
  return ref?.entity === 'track' ? ref.id : null;
}
