import type { Route } from 'playwright-core';

/** Fixtures and small helpers of the Import and Export edge-case browser tests. */

export const normalise = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim();

/** Refused requests are logged by Chromium on its own; those are expected. */
export const expectedConsoleNoise = (message: string) => /Failed to load resource: the server responded with a status of (4\d\d|5\d\d)/.test(message);

export const LONG_NAME = 'Verylongplaylistnamewithoutanyspaces'.repeat(8);
export const HEBREW = 'שלום עולם (Remix) 2!';

/** An M3U8 file whose playlist has a very long unbroken name, and a track with a Hebrew title. */
export const LONG_M3U8 = ['#EXTM3U', `#PLAYLIST:${LONG_NAME}`, `#EXTINF:200,${'Artistwithoutspaces'.repeat(6)} - ${'Titlewithoutspaces'.repeat(8)}`, 'a.mp3', `#EXTINF:100,להקה - ${HEBREW}`, 'b.mp3', ''].join('\n');

/** An Open Playlist bundle of `count` playlists of `tracks` tracks each. */
export function bundle(count: number, tracks: number, name = (index: number) => `Playlist ${index + 1}`): string {
  return JSON.stringify({
    schema_version: 1,
    playlists: Array.from({ length: count }, (_, index) => ({
      id: null,
      name: name(index),
      description: null,
      tracks: Array.from({ length: tracks }, (_, position) => ({ title: `Song ${position + 1}`, artist: `Band ${index + 1}`, position })),
    })),
  });
}

export const problemJson = (status: number, body: Record<string, unknown>) => (route: Route) =>
  route.fulfill({ status, contentType: 'application/problem+json', body: JSON.stringify({ status, ...body }) });

export function account(id: string, name: string, status: string): Record<string, unknown> {
  return {
    id,
    provider: 'spotify',
    provider_display_name: 'Spotify',
    plugin_id: 'opl.provider.spotify',
    display_name: name,
    provider_user_id: name.toLowerCase(),
    account_label: null,
    status,
    auth_kind: 'OAUTH_PKCE',
    scopes: [],
    expires_at: null,
    connected_at: '2026-11-21T10:00:00.000Z',
    demo: false,
  };
}
