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
  // No URL class in the sandbox: a strict pattern instead of a parser.
  const web = /^https?:\/\/([A-Za-z0-9.-]+)(\/[^?#\s]*)?(?:\?([^#\s]*))?(?:#\S*)?$/.exec(text.trim());
  if (!web) return null;
  const host = web[1]!.toLowerCase();
  const pathname = web[2] ?? '/';
  const params = new Map<string, string>();
  for (const pair of (web[3] ?? '').split('&')) {
    const [name, value] = pair.split('=');
    if (name && value !== undefined && !params.has(name)) params.set(name, value);
  }
  if (host === 'youtu.be') {
    const id = pathname.slice(1);
    return VIDEO_ID.test(id) ? { entity: 'track', id } : null;
  }
  if (!WEB_HOSTS.has(host)) return null;
  if (pathname === '/watch') {
    const id = params.get('v') ?? '';
    return VIDEO_ID.test(id) ? { entity: 'track', id } : null;
  }
  if (pathname === '/playlist') {
    const id = params.get('list') ?? '';
    return PLAYLIST_ID.test(id) ? { entity: 'playlist', id } : null;
  }
  const path = /^\/(?:shorts|embed|v)\/([A-Za-z0-9_-]{11})$/.exec(pathname);
  return path ? { entity: 'track', id: path[1]! } : null;
}
