import { expect } from 'vitest';
import { startTestIdp, type TestIdp } from '../../fakes/oidc/oidc-test-provider.ts';
import type { FakeAccountTokens, FakeProviderServer } from '../../fakes/fake-provider.ts';
import type { SeedLibrary } from '../../fakes/seed-catalog.ts';
import { startFakeSpotify, type FakeSpotifyServer } from '../../fakes/spotify/index.ts';
import { startFakeTidal, type FakeTidal } from '../../fakes/tidal/index.ts';
import { firstPartyPlugins } from '../support/first-party-plugins.ts';
import { hostedOidcEnv, OIDC_REDIRECT_URI, signInAs } from '../support/oidc-session.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

/**
 * A hosted instance as an operator runs it: users sign in at an OpenID provider (in-process), the
 * admin (`admin`, member of `opl-admins`) admits the Spotify and TIDAL plugins and the text reader
 * to the allow-list, and each listener connects their own accounts at the fake providers. Every
 * engine call goes through `call`, with the caller's session cookie.
 */

export interface Listener {
  subject: string;
  cookie: string;
  spotifyUser: FakeAccountTokens;
  tidalUser: FakeAccountTokens;
  spotifyAccount: string;
  tidalAccount: string;
}

export interface HostedHarness {
  idp: TestIdp;
  app: TestApp;
  spotify: FakeSpotifyServer;
  tidal: FakeTidal;
  admin: string;
  call(method: string, url: string, cookie: string, payload?: unknown): Promise<{ statusCode: number; headers: Record<string, unknown>; body: string; json<T>(): T }>;
  /** Signs `subject` in and connects a Spotify and a TIDAL account with the given libraries. */
  listener(subject: string, libraries: { spotify?: SeedLibrary; tidal?: SeedLibrary }): Promise<Listener>;
  /** Connects an account at `provider` for the session `cookie` through the redirect flow; returns its id. */
  connect(provider: 'spotify' | 'tidal', cookie: string, userId: string): Promise<string>;
  sql(text: string, values?: unknown[]): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

type Admin = { refused: Array<{ id: string; key_id: string | null }>; loaded: Array<{ id: string }> };

export async function startHostedHarness(options: { env?: Record<string, string>; worker?: boolean } = {}): Promise<HostedHarness> {
  const idp = await startTestIdp({ redirectUri: OIDC_REDIRECT_URI });
  idp.users.set('admin', { email: 'admin@example.org', groups: ['opl-admins'] });
  const spotify = await startFakeSpotify();
  const tidal = await startFakeTidal();
  const plugins = await firstPartyPlugins();
  const app = await startTestApp({ ...plugins.env, ...hostedOidcEnv(idp, { OPL_OIDC_ADMIN_GROUPS: 'opl-admins' }), ...options.env }, { http: true, worker: options.worker ?? false }, {
    oidcFetch: idp.fetch,
    providerOriginOverrides: { ...spotify.originOverrides, ...tidal.originOverrides },
    providerClients: { spotify: { client_id: 'opl-demo-client' }, tidal: { client_id: 'opl-demo-client' } },
  });
  const call: HostedHarness['call'] = (method, url, cookie, payload) =>
    app.app.http!.inject({ method: method as 'GET', url, headers: { cookie }, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });

  const admin = await signInAs(app, idp, 'admin');
  const listing = (await call('GET', '/api/admin/plugins', admin)).json<Admin>();
  for (const id of ['opl.provider.spotify', 'opl.provider.tidal', 'opl.format.txt']) {
    const plugin = listing.refused.find((candidate) => candidate.id === id);
    expect(plugin, `${id} is in the registry`).toBeDefined();
    const added = await call('POST', '/api/admin/plugins/allow-list', admin, { plugin_id: id, key_id: plugin!.key_id, version_range: '*' });
    expect(added.statusCode, added.body).toBe(201);
  }
  expect((await call('POST', '/api/admin/plugins/reload', admin)).statusCode).toBeLessThan(300);

  const connect: HostedHarness['connect'] = async (provider, cookie, userId) => {
    const fake: FakeProviderServer = provider === 'spotify' ? spotify : tidal;
    fake.setAuthorizeUser(userId);
    const begin = await call('POST', `/api/auth/${provider}/begin`, cookie, {});
    expect(begin.statusCode, begin.body).toBe(200);
    const authorize = await fetch(begin.json<{ redirect_url: string }>().redirect_url, { redirect: 'manual' });
    // The provider sends the browser to the instance's public address: the path is what counts.
    const back = new URL(authorize.headers.get('location')!);
    const landed = await call('GET', `${back.pathname}${back.search}`, cookie);
    const location = typeof landed.headers['location'] === 'string' ? landed.headers['location'] : '';
    const match = /connected=([0-9a-f-]{36})/.exec(location);
    expect(match, `connecting ${provider}: ${landed.statusCode} ${location}`).not.toBeNull();
    return match![1]!;
  };

  return {
    idp,
    app,
    spotify,
    tidal,
    admin,
    call,
    connect,
    async listener(subject, libraries) {
      idp.users.set(subject, { email: `${subject}@example.org` });
      const cookie = await signInAs(app, idp, subject);
      const spotifyUser = spotify.createAccount({ displayName: `${subject} on Spotify`, library: libraries.spotify ?? {} });
      const tidalUser = tidal.createAccount({ displayName: `${subject} on TIDAL`, library: libraries.tidal ?? {} });
      const spotifyAccount = await connect('spotify', cookie, spotifyUser.userId);
      const tidalAccount = await connect('tidal', cookie, tidalUser.userId);
      return { subject, cookie, spotifyUser, tidalUser, spotifyAccount, tidalAccount };
    },
    sql: (text, values = []) => app.app.services.database.orm.em.getConnection().execute<Record<string, unknown>[]>(text, values),
    async close() {
      await app.close();
      await Promise.all([spotify.close(), tidal.close(), idp.close()]);
      await plugins.remove();
    },
  };
}
