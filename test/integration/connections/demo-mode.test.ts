import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../core/config/index.ts';
import { startConnectionApp, type ConnectionApp } from '../support/connection-app.ts';

/**
 * Demo mode (`OPL_DEMO=1`): the engine runs the fake Spotify and TIDAL servers in-process with
 * seeded libraries, so a newcomer connects accounts with no credentials. Everything says demo.
 * The seeded libraries give the organizer work to show (a collaborative playlist, a duplicate pair).
 */

let app: ConnectionApp;
let baseUrl: string;

beforeAll(async () => {
  app = await startConnectionApp({}, { env: { OPL_DEMO: '1' } });
  ({ baseUrl } = app);
}, 240_000);

afterAll(async () => {
  await app?.close();
});

async function connect(provider: string): Promise<string> {
  const begin = await fetch(`${baseUrl}/api/auth/${provider}/begin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  expect(begin.status).toBe(200);
  const challenge = (await begin.json()) as { redirect_url: string; demo: boolean };
  expect(challenge.demo).toBe(true);
  // The demo provider approves at once as its demo user.
  const authorize = await fetch(challenge.redirect_url, { redirect: 'manual' });
  const landed = await fetch(authorize.headers.get('location')!, { redirect: 'manual' });
  const location = landed.headers.get('location')!;
  expect(location).toMatch(/^\/#\/connections\?connected=/);
  return location.split('connected=')[1]!;
}

describe('demo mode', () => {
  it('offers demo Spotify, TIDAL, YouTube Music, Apple Music and Deezer, labelled as demo and connectable without configuration', async () => {
    const { providers } = (await (await fetch(`${baseUrl}/providers`)).json()) as { providers: { name: string; demo: boolean; connectable: boolean }[] };
    for (const name of ['spotify', 'tidal', 'ytmusic', 'applemusic', 'deezer']) expect(providers.find((provider) => provider.name === name), name).toMatchObject({ demo: true, connectable: true });
  });

  it('connects a demo Deezer account through its own OAuth dialect and reads its library', async () => {
    const accountId = await connect('deezer');
    const list = (await (await fetch(`${baseUrl}/api/playlists?account_id=${accountId}`)).json()) as { playlists: { name: string }[] };
    expect(list.playlists.length).toBeGreaterThan(1);
  });

  it('connects a demo YouTube Music account by device code (approved at the first poll)', async () => {
    const begin = (await (await fetch(`${baseUrl}/api/auth/ytmusic/begin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client: { client_id: 'opl-demo-client', client_secret: 'demo' } }) })).json()) as { shape: string; state: string; user_code?: string; interval_s?: number };
    expect(begin.shape).toBe('device_code');
    let connected: { status: string; account?: { id: string } } = { status: 'pending' };
    for (let poll = 0; poll < 20 && connected.status === 'pending'; poll++) {
      await new Promise((resolve) => setTimeout(resolve, 1_000 * (poll === 0 ? 0 : Math.min(begin.interval_s ?? 2, 3))));
      connected = (await (await fetch(`${baseUrl}/api/auth/ytmusic/complete`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ state: begin.state }) })).json()) as typeof connected;
    }
    expect(connected.status).toBe('connected');
    const list = (await (await fetch(`${baseUrl}/api/playlists?account_id=${connected.account!.id}`)).json()) as { playlists: { name: string }[] };
    expect(list.playlists.length).toBeGreaterThan(0);
  }, 60_000);

  it('connects a demo Spotify account and reads its seeded library', async () => {
    const accountId = await connect('spotify');
    const { accounts } = (await (await fetch(`${baseUrl}/api/auth/accounts`)).json()) as { accounts: { id: string; demo: boolean; display_name: string }[] };
    expect(accounts.find((account) => account.id === accountId)).toMatchObject({ demo: true, display_name: 'Demo Listener' });
    const list = (await (await fetch(`${baseUrl}/api/playlists?account_id=${accountId}`)).json()) as { playlists: { name: string }[] };
    expect(list.playlists.map((playlist) => playlist.name)).toEqual(expect.arrayContaining(['Liked songs', 'Road Trip 2024', '夜のプレイリスト']));
  });

  it('gives the organizer something to show: a collaborative playlist and a same-named pair with overlapping songs', async () => {
    const accountId = await connect('spotify');
    const listing = await fetch(`${baseUrl}/api/organizer/playlists?account_id=${accountId}`);
    expect(listing.status).toBe(200);
    const rows = ((await listing.json()) as { playlists: { name: string; relation: string; actions: Record<string, { available: boolean }> }[] }).playlists;
    expect(rows.find((row) => row.name === 'Band Practice')).toMatchObject({ relation: 'collaborative', actions: { remove_tracks: { available: true } } });
    expect(rows.find((row) => row.name === 'Friends Weekly')).toMatchObject({ relation: 'followed' });
    const scan = await fetch(`${baseUrl}/api/organizer/duplicates`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ scope: 'playlists', account_id: accountId }) });
    expect(scan.status).toBe(200);
    const pairs = ((await scan.json()) as { pairs: { playlists: { name: string }[]; overlap: number }[] }).pairs;
    expect(pairs.map((pair) => pair.playlists.map((playlist) => playlist.name))).toEqual([['Workout', 'Workout']]);
    expect(pairs[0]!.overlap).toBeGreaterThanOrEqual(0.5);
  });

  it('connects a demo TIDAL account too', async () => {
    const accountId = await connect('tidal');
    const response = await fetch(`${baseUrl}/api/playlists?account_id=${accountId}`);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { playlists: unknown[] }).playlists.length).toBeGreaterThan(0);
  });

  it('is refused in hosted mode', () => {
    expect(() => loadConfig({ OPL_DEPLOYMENT_MODE: 'hosted', OPL_DEMO: '1' })).toThrow(/OPL_DEMO/);
  });
});
