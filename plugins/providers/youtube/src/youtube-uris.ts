/**
 * YouTube references: the engine's URIs (`youtube:video:<id>`, `youtube:playlist:<id>`) and the
 * web links people paste (`youtube.com/watch?v=`, `youtu.be/`, `music.youtube.com/watch?v=`,
 * `youtube.com/playlist?list=`, `/shorts/`, `/embed/`).
 */

const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;
const PLAYLIST_ID = /^(?:PL|LL|FL|UU|OL|RD)[A-Za-z0-9_-]{0,64}$/;
const WEB_HOSTS = new Set(['youtube.com', 'www.youtube.com', 'm.youtube.com', 'music.youtube.com']);

export type YoutubeRef = { readonly entity: 'track'; readonly id: string } | { readonly entity: 'playlist'; readonly id: string };

export function videoUri(id: string): string {
  return `youtube:video:${id}`;
}

export function playlistUri(id: string): string {
  return `youtube:playlist:${id}`;
}

export function watchUrl(id: string): string {
  return `https://www.youtube.com/watch?v=${id}`;
}

export function parseYoutubeUri(text: string): YoutubeRef | null {
  const uri = /^youtube:(video|playlist):([A-Za-z0-9_-]{1,66})$/.exec(text.trim());
  if (uri) {
    const id = uri[2]!;
    if (uri[1] === 'video') return VIDEO_ID.test(id) ? { entity: 'track', id } : null;
    return PLAYLIST_ID.test(id) ? { entity: 'playlist', id } : null;
  }
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  const host = url.hostname.toLowerCase();
  if (host === 'youtu.be') {
    const id = url.pathname.slice(1);
    return VIDEO_ID.test(id) ? { entity: 'track', id } : null;
  }
  if (!WEB_HOSTS.has(host)) return null;
  if (url.pathname === '/watch') {
    const id = url.searchParams.get('v') ?? '';
    return VIDEO_ID.test(id) ? { entity: 'track', id } : null;
  }
  if (url.pathname === '/playlist') {
    const id = url.searchParams.get('list') ?? '';
    return PLAYLIST_ID.test(id) ? { entity: 'playlist', id } : null;
  }
  const path = /^\/(?:shorts|embed|v)\/([A-Za-z0-9_-]{11})$/.exec(url.pathname);
  return path ? { entity: 'track', id: path[1]! } : null;
}
