import type { Playlist } from '@opl/plugin-sdk';

/**
 * The public share page: server-rendered HTML listing the shared playlist, with every value
 * escaped and no script. Its Content-Security-Policy allows nothing but its own inline style.
 * Pure: no I/O.
 */

export const SHARE_PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);
}

function duration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '';
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

const STYLE = `
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; line-height: 1.5; }
  body { margin: 0 auto; max-width: 48rem; padding: 1.5rem; }
  h1 { margin-bottom: 0.25rem; }
  .meta { color: GrayText; margin-top: 0; }
  ol { padding-left: 2.5rem; }
  li { padding: 0.2rem 0; }
  .artist { color: GrayText; }
  .time { color: GrayText; font-variant-numeric: tabular-nums; margin-left: 0.5rem; }
  a { color: LinkText; }
  .how { border-left: 4px solid currentColor; padding-left: 0.75rem; }
`;

export function renderSharePage(playlist: Playlist, links: { page: string; json: string; copy: string }): string {
  const rows = playlist.tracks
    .map((track) => {
      const album = track.album ? ` · ${escapeHtml(track.album)}` : '';
      const time = duration(track.duration_s);
      return `<li><span class="title">${escapeHtml(track.title)}</span> — <span class="artist">${escapeHtml(track.artist)}${album}</span>${time ? `<span class="time">${time}</span>` : ''}</li>`;
    })
    .join('\n');
  const count = playlist.tracks.length;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(playlist.name)} · shared playlist</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${escapeHtml(playlist.name)}</h1>
<p class="meta">Shared playlist · ${count} ${count === 1 ? 'track' : 'tracks'}</p>
${playlist.description ? `<p>${escapeHtml(playlist.description)}</p>` : ''}
<ol>
${rows}
</ol>
<p class="copy"><a href="${escapeHtml(links.copy)}">Copy to my account</a> — connect your own music service account on this engine and copy the playlist into it.</p>
<p class="how">To copy this playlist with another engine, paste this page's link (<code>${escapeHtml(links.page)}</code>) into the URL box of an Open Playlist Engine's Import page. The playlist is also available as <a href="${escapeHtml(links.json)}" type="application/vnd.open-playlist+json">Open Playlist JSON</a>.</p>
</main>
</body>
</html>
`;
}
