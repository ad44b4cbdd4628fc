import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { startTestIdp, TEST_IDP_CLIENT_ID, type TestIdp } from '../../fakes/oidc/oidc-test-provider.ts';
import { isAvailableOn, seedCatalog, type SeedTrack } from '../../fakes/seed-catalog.ts';
import { startFakeSpotify, type FakeSpotifyServer } from '../../fakes/spotify/index.ts';
import { startFakeTidal, type FakeTidal } from '../../fakes/tidal/index.ts';
import { firstPartyPlugins } from '../support/first-party-plugins.ts';
import { beginSignIn, cookieFrom, finishSignIn, HOSTED_BASE_URL, hostedOidcEnv, OIDC_REDIRECT_URI, signInAs } from '../support/oidc-session.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

/**
 * Hosted mode's user sign-in against a real OpenID provider (oidc-provider) in the test process:
 * authorization code with PKCE, state, nonce and ID-token validation by the engine's relying party.
 * Every way a callback can be wrong is refused with its own clear error, and signs nobody in.
 * The engine runs a worker with the first-party plugins against the Spotify and TIDAL fakes, so
 * signed-in users (and a recipient of a share) are served end to end.
 */

const catalog = seedCatalog();
const songs = [...catalog.tracks.values()].filter((track) => track.mediaType === 'track' && track.isrc !== null && isAvailableOn(track, 'spotify') && isAvailableOn(track, 'tidal'));
const keysOf = (tracks: readonly SeedTrack[]) => tracks.map((track) => track.key);

type Problem = { code: string; detail: string };

describe('OpenID Connect sign-in (hosted mode)', () => {
  let idp: TestIdp;
  let t: TestApp;
  let spotify: FakeSpotifyServer;
  let tidal: FakeTidal;
  let plugins: Awaited<ReturnType<typeof firstPartyPlugins>>;
  const get = (url: string, cookie?: string) => t.app.http!.inject({ method: 'GET', url, ...(cookie ? { headers: { cookie } } : {}) });

  beforeAll(async () => {
    idp = await startTestIdp({ redirectUri: OIDC_REDIRECT_URI });
    idp.users.set('alice-sub', { email: 'alice@example.org', name: 'Alice', groups: ['listeners', 'opl-admins'] });
    idp.users.set('bob-sub', { email: 'Bob@Example.org', name: 'Bob', groups: ['listeners'] });
    idp.users.set('mallory-sub', { email: 'mallory@elsewhere.test', groups: ['listeners'] });
    idp.users.set('unverified-sub', { email: 'eve@example.org', email_verified: false });
    [spotify, tidal, plugins] = await Promise.all([startFakeSpotify(), startFakeTidal(), firstPartyPlugins()]);
    t = await startTestApp({ ...plugins.env, ...hostedOidcEnv(idp, { OPL_OIDC_ALLOWED_DOMAINS: 'example.org', OPL_OIDC_ADMIN_GROUPS: 'opl-admins' }) }, { http: true, worker: true }, {
      oidcFetch: idp.fetch,
      providerOriginOverrides: { ...spotify.originOverrides, ...tidal.originOverrides },
      providerClients: { spotify: { client_id: 'opl-demo-client' }, tidal: { client_id: 'opl-demo-client' } },
    });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await idp?.close();
    await plugins?.remove();
    await spotify?.close();
    await tidal?.close();
  });

  it('refuses private routes without a session, saying how to sign in', async () => {
    const answer = await get('/api/accounts');
    expect(answer.statusCode).toBe(401);
    expect(answer.json()).toMatchObject({ code: 'session_required', sign_in: { method: 'oidc', url: '/api/auth/oidc/login' } });
    const me = await get('/api/me');
    expect(me.statusCode).toBe(401);
  });

  it('the login redirect asks the provider for a code with PKCE (S256), state, nonce and the configured scopes', async () => {
    const login = await get('/api/auth/oidc/login');
    expect(login.statusCode).toBe(302);
    const url = new URL(String(login.headers.location));
    expect(url.origin).toBe(idp.issuer);
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(url.searchParams.get('state')).toMatch(/^[\w-]{20,}$/);
    expect(url.searchParams.get('nonce')).toMatch(/^[\w-]{20,}$/);
    expect(url.searchParams.get('scope')).toBe('openid email profile');
    expect(url.searchParams.get('redirect_uri')).toBe(OIDC_REDIRECT_URI);
    const cookie = (login.headers['set-cookie'] as string | string[]).toString();
    expect(cookie).toMatch(/opl_oidc_attempt=[^;]+;.*HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Secure/i);
  });

  it('signs a user in: an HttpOnly, SameSite=Strict, Secure session cookie; /api/me and /api/session show the user', async () => {
    const { attemptCookie, callback } = await beginSignIn(t, idp, 'alice-sub');
    const done = await finishSignIn(t, callback, attemptCookie);
    expect(done.statusCode).toBe(302);
    expect(done.headers.location).toBe('/');
    const sessionLine = (done.headers['set-cookie'] as string[]).find((line) => line.startsWith('opl_session='))!;
    expect(sessionLine).toMatch(/HttpOnly/i);
    expect(sessionLine).toMatch(/SameSite=Strict/i);
    expect(sessionLine).toMatch(/Secure/i);
    const session = cookieFrom(done, 'opl_session')!;
    const me = (await get('/api/me', session)).json<{ owner_id: string; session: { authenticated: boolean; sign_in: string }; user: { id: string; email: string; display_name: string; is_admin: boolean } }>();
    expect(me.session).toEqual({ required: true, authenticated: true, sign_in: 'oidc' });
    expect(me.user).toMatchObject({ email: 'alice@example.org', display_name: 'Alice', is_admin: true });
    expect(me.owner_id).toBe(me.user.id);
    const current = (await get('/api/session', session)).json<{ user: { id: string }; session: { id: string } }>();
    expect(current.user.id).toBe(me.user.id);
    // The user may use owner features now: hosted mode no longer refuses them.
    expect((await get('/api/migrations', session)).statusCode).toBe(200);
  });

  it('the same subject signs in as the same user again; another subject is another user', async () => {
    const first = (await get('/api/me', await signInAs(t, idp, 'bob-sub'))).json<{ user: { id: string; is_admin: boolean } }>();
    const second = (await get('/api/me', await signInAs(t, idp, 'bob-sub'))).json<{ user: { id: string } }>();
    const alice = (await get('/api/me', await signInAs(t, idp, 'alice-sub'))).json<{ user: { id: string } }>();
    expect(second.user.id).toBe(first.user.id);
    expect(alice.user.id).not.toBe(first.user.id);
    expect(first.user.is_admin).toBe(false);
  });

  it('lists the user’s own sessions and revokes one; another user cannot revoke it', async () => {
    const one = await signInAs(t, idp, 'bob-sub');
    const two = await signInAs(t, idp, 'bob-sub');
    const alice = await signInAs(t, idp, 'alice-sub');
    const listed = (await get('/api/sessions', one)).json<{ sessions: Array<{ id: string; current: boolean }> }>().sessions;
    const current = listed.find((entry) => entry.current)!;
    const other = (await get('/api/sessions', two)).json<{ sessions: Array<{ id: string; current: boolean }> }>().sessions.find((entry) => entry.current)!;
    expect(listed.map((entry) => entry.id)).toContain(other.id);
    const aliceIds = (await get('/api/sessions', alice)).json<{ sessions: Array<{ id: string }> }>().sessions.map((entry) => entry.id);
    expect(aliceIds).not.toContain(current.id);
    expect((await t.app.http!.inject({ method: 'DELETE', url: `/api/sessions/${other.id}`, headers: { cookie: alice } })).statusCode).toBe(404);
    expect((await get('/api/me', two)).statusCode).toBe(200);
    expect((await t.app.http!.inject({ method: 'DELETE', url: `/api/sessions/${other.id}`, headers: { cookie: one } })).statusCode).toBe(204);
    expect((await get('/api/me', two)).statusCode).toBe(401);
    expect((await get('/api/me', one)).statusCode).toBe(200);
  });

  it('signs out: the session ends here, then at the provider (its end-session URL with the ID token as hint)', async () => {
    const session = await signInAs(t, idp, 'bob-sub');
    const me = (await get('/api/me', session)).json<{ user: { id: string } }>();
    // The ID token is kept only sealed, with the session.
    const [stored] = await t.app.services.database.orm.em.getConnection().execute<Record<string, unknown>[]>('select s.id_token_sealed from owner_session s where s.user_id = ? order by s.created_at desc limit 1', [me.user.id]);
    expect(stored!['id_token_sealed']).toBeInstanceOf(Buffer);
    expect(Buffer.from(stored!['id_token_sealed'] as Buffer).toString('latin1')).not.toMatch(/eyJ/);

    const out = await t.app.http!.inject({ method: 'DELETE', url: '/api/session', headers: { cookie: session } });
    expect(out.statusCode).toBe(200);
    expect(String(out.headers['set-cookie'])).toMatch(/^opl_session=;/);
    expect((await get('/api/me', session)).statusCode).toBe(401);
    const url = new URL(out.json<{ end_session_url: string }>().end_session_url);
    const discovery = (await (await idp.fetch(`${idp.issuer}/.well-known/openid-configuration`, { method: 'GET', headers: {}, body: undefined, redirect: 'manual' })).json()) as { end_session_endpoint: string };
    expect(`${url.origin}${url.pathname}`).toBe(discovery.end_session_endpoint);
    expect(url.searchParams.get('post_logout_redirect_uri')).toBe(`${HOSTED_BASE_URL}/`);
    const hint = decodeJwt(url.searchParams.get('id_token_hint')!);
    expect(hint).toMatchObject({ iss: idp.issuer, sub: 'bob-sub', aud: TEST_IDP_CLIENT_ID });
    // The provider accepts the request (its hint and return address): it asks the user to confirm the sign-out.
    const atProvider = await idp.fetch(url.href, { method: 'GET', headers: {}, body: undefined, redirect: 'manual' });
    const page = await atProvider.text();
    expect(atProvider.status, page.slice(0, 300)).toBe(200);
    expect(page).toMatch(/logout/i);
    // Signing out again (no session any more) is a plain 204: nothing to end at the provider.
    expect((await t.app.http!.inject({ method: 'DELETE', url: '/api/session', headers: { cookie: session } })).statusCode).toBe(204);
  });

  it('refuses a callback whose state no attempt of this instance has', async () => {
    const { attemptCookie, callback } = await beginSignIn(t, idp, 'bob-sub');
    callback.searchParams.set('state', 'a-state-this-instance-never-issued');
    const answer = await finishSignIn(t, callback, attemptCookie);
    expect(answer.statusCode).toBe(400);
    expect(answer.json<Problem>()).toMatchObject({ code: 'oidc_attempt_invalid' });
    expect(cookieFrom(answer, 'opl_session')).toBeUndefined();
  });

  it('refuses a callback brought by another browser (no attempt cookie), and the attempt is spent', async () => {
    const { attemptCookie, callback } = await beginSignIn(t, idp, 'bob-sub');
    const foreign = await finishSignIn(t, callback, undefined);
    expect(foreign.json<Problem>()).toMatchObject({ code: 'oidc_attempt_invalid' });
    expect(foreign.json<Problem>().detail).toMatch(/another browser/);
    expect((await finishSignIn(t, callback, attemptCookie)).json<Problem>().code).toBe('oidc_attempt_invalid');
  });

  it('refuses a replayed callback, and a used code under a fresh attempt', async () => {
    const { attemptCookie, callback } = await beginSignIn(t, idp, 'bob-sub');
    expect((await finishSignIn(t, callback, attemptCookie)).statusCode).toBe(302);
    const again = await finishSignIn(t, callback, attemptCookie);
    expect(again.statusCode).toBe(400);
    expect(again.json<Problem>().code).toBe('oidc_attempt_invalid');
    // A fresh attempt of the same browser, answered with the code already used.
    const fresh = await beginSignIn(t, idp, 'bob-sub');
    const replayed = new URL(fresh.callback);
    replayed.searchParams.set('code', callback.searchParams.get('code')!);
    const answer = await finishSignIn(t, replayed, fresh.attemptCookie);
    expect(answer.statusCode).toBe(401);
    expect(answer.json<Problem>()).toMatchObject({ code: 'oidc_sign_in_failed' });
    expect(answer.json<Problem>().detail).toMatch(/invalid_grant/);
  });

  const refusedIdToken = async (alteration: Parameters<TestIdp['alterNextIdToken']>[0]) => {
    const { attemptCookie, callback } = await beginSignIn(t, idp, 'bob-sub');
    idp.alterNextIdToken(alteration);
    const answer = await finishSignIn(t, callback, attemptCookie);
    expect(cookieFrom(answer, 'opl_session')).toBeUndefined();
    expect(answer.statusCode).toBe(401);
    expect(answer.json<Problem>().code).toBe('oidc_sign_in_failed');
    return answer.json<Problem>().detail;
  };

  it('refuses an expired ID token', async () => {
    const past = Math.floor(Date.now() / 1000) - 3600;
    expect(await refusedIdToken({ kind: 'resign', claims: (claims) => ({ ...claims, iat: past - 600, exp: past }) })).toMatch(/"exp"/);
  });

  it('refuses a tampered ID token (its signature no longer verifies)', async () => {
    expect(await refusedIdToken({ kind: 'tamper' })).toMatch(/signature/i);
  });

  it('refuses an ID token for another audience', async () => {
    expect(await refusedIdToken({ kind: 'resign', claims: (claims) => ({ ...claims, aud: 'another-client' }) })).toMatch(/"aud"/);
  });

  it('refuses an ID token from another issuer', async () => {
    expect(await refusedIdToken({ kind: 'resign', claims: (claims) => ({ ...claims, iss: 'https://issuer.elsewhere.test' }) })).toMatch(/"iss"/);
  });

  it('refuses an ID token whose nonce is not the attempt’s', async () => {
    expect(await refusedIdToken({ kind: 'resign', claims: (claims) => ({ ...claims, nonce: 'another-nonce' }) })).toMatch(/"nonce"/);
  });

  it('refuses users outside the allowed e-mail domains, and unverified addresses', async () => {
    for (const subject of ['mallory-sub', 'unverified-sub']) {
      const { attemptCookie, callback } = await beginSignIn(t, idp, subject);
      const answer = await finishSignIn(t, callback, attemptCookie);
      expect(answer.statusCode).toBe(403);
      expect(answer.json<Problem>()).toMatchObject({ code: 'oidc_user_not_allowed' });
      expect(answer.json<Problem>().detail).toMatch(/verified e-mail addresses of example\.org/);
    }
  });

  it('admins (by group) may use the admin routes; other users may not', async () => {
    const alice = await signInAs(t, idp, 'alice-sub');
    const bob = await signInAs(t, idp, 'bob-sub');
    expect((await get('/api/admin/plugins', alice)).statusCode).toBe(200);
    const refused = await get('/api/admin/plugins', bob);
    expect(refused.statusCode).toBe(403);
    expect(refused.json<Problem>().code).toBe('admin_required');
  });

  it('the owner secret is no way in on a hosted instance', async () => {
    const answer = await t.app.http!.inject({ method: 'POST', url: '/api/session', payload: { secret: 'whatever secret someone tries' } });
    expect(answer.statusCode).toBe(404);
  });

  it('failed callbacks are throttled like failed sign-ins: from one address they lock out, saying until when', async () => {
    const address = '203.0.113.44';
    const answers = await Promise.all(Array.from({ length: 12 }, (_, index) => finishSignIn(t, new URL(`${OIDC_REDIRECT_URI}?code=guess-${index}&state=guess-${index}`), undefined, address)));
    const codes = answers.map((answer) => answer.json<Problem>().code);
    expect(codes.filter((code) => code === 'oidc_attempt_invalid')).toHaveLength(10);
    expect(codes.filter((code) => code === 'sign_in_locked')).toHaveLength(2);
    // A real sign-in from that address waits for the lockout too; another address is not affected.
    const { attemptCookie, callback } = await beginSignIn(t, idp, 'bob-sub');
    expect((await finishSignIn(t, callback, attemptCookie, address)).json<Problem>().code).toBe('sign_in_locked');
    const other = await beginSignIn(t, idp, 'bob-sub');
    expect((await finishSignIn(t, other.callback, other.attemptCookie)).statusCode).toBe(302);
  }, 60_000);

  it('serves several users end to end: each connects, migrates and exports their own; a recipient of A’s share migrates it into their own account', async () => {
    const send = (method: 'POST' | 'GET' | 'DELETE', url: string, cookie: string, payload?: Record<string, unknown>) =>
      t.app.http!.inject({ method, url, headers: { cookie }, ...(payload === undefined ? {} : { payload }) });
    const alice = await signInAs(t, idp, 'alice-sub');
    const bob = await signInAs(t, idp, 'bob-sub');

    // Alice, an admin, admits the first-party plugins (providers and formats) to the allow-list.
    type Admin = { loaded: Array<{ id: string }>; refused: Array<{ id: string; key_id: string | null }> };
    for (const plugin of (await get('/api/admin/plugins', alice)).json<Admin>().refused) {
      expect((await send('POST', '/api/admin/plugins/allow-list', alice, { plugin_id: plugin.id, key_id: plugin.key_id, version_range: '*' })).statusCode).toBe(201);
    }
    expect((await send('POST', '/api/admin/plugins/reload', alice)).statusCode).toBeLessThan(300);
    expect((await get('/api/admin/plugins', alice)).json<Admin>().loaded.map((plugin) => plugin.id)).toEqual(expect.arrayContaining(['opl.provider.spotify', 'opl.provider.tidal', 'opl.format.json']));

    /** Connects `cookie`'s browser to the fake's account `userId` through the redirect flow; the provider's redirect back carries no cookie. */
    const connect = async (cookie: string, fake: FakeSpotifyServer | FakeTidal, provider: string, userId: string) => {
      fake.setAuthorizeUser(userId);
      const begin = await send('POST', `/api/auth/${provider}/begin`, cookie, {});
      expect(begin.statusCode, begin.body).toBe(200);
      const authorize = await fetch(begin.json<{ redirect_url: string }>().redirect_url, { redirect: 'manual' });
      const back = new URL(authorize.headers.get('location')!);
      const landed = await t.app.http!.inject({ method: 'GET', url: `${back.pathname}${back.search}` });
      const account = /connected=([0-9a-f-]{36})/.exec(String(landed.headers.location))?.[1];
      expect(account, String(landed.headers.location)).toBeDefined();
      return account!;
    };
    /** Starts a migration of one playlist as `cookie` and follows it to its end (approving what waits for review). */
    const migrate = async (cookie: string, body: Record<string, unknown>) => {
      const started = await send('POST', '/api/migrations', cookie, { ...body, acknowledge_warnings: true });
      expect(started.statusCode, started.body).toBe(202);
      const jobId = started.json<{ id: string }>().id;
      const settled = async () => {
        let status = '';
        for (let attempt = 0; attempt < 300 && !['completed', 'failed', 'awaiting_review'].includes(status); attempt++) {
          if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 200));
          status = (await get(`/api/migrations/${jobId}`, cookie)).json<{ status: string }>().status;
        }
        return status;
      };
      if ((await settled()) === 'awaiting_review') expect((await send('POST', `/api/migrations/${jobId}/items/review`, cookie, { action: 'approve', item_ids: [] })).statusCode).toBe(200);
      expect(await settled()).toBe('completed');
      return jobId;
    };

    const listeners = {
      alice: { cookie: alice, name: 'Alice Road Trip', tracks: songs.slice(0, 3) },
      bob: { cookie: bob, name: 'Bob Quiet Hours', tracks: songs.slice(3, 5) },
    };
    const made: Record<string, { spotifyUser: string; tidalUser: string; spotify: string; tidal: string; playlist: string; job: string }> = {};
    for (const [who, listener] of Object.entries(listeners)) {
      const spotifyUser = spotify.createAccount({ displayName: `${who} on Spotify`, library: { playlists: [{ name: listener.name, trackKeys: keysOf(listener.tracks) }] } }).userId;
      const tidalUser = tidal.createAccount({ displayName: `${who} on TIDAL`, library: { playlists: [] } }).userId;
      const spotifyAccount = await connect(listener.cookie, spotify, 'spotify', spotifyUser);
      const tidalAccount = await connect(listener.cookie, tidal, 'tidal', tidalUser);
      const playlists = (await get(`/api/playlists?account_id=${spotifyAccount}`, listener.cookie)).json<{ playlists: Array<{ id: string; name: string }> }>().playlists;
      const playlist = playlists.find((entry) => entry.name === listener.name)!.id;
      const job = await migrate(listener.cookie, { source_provider: 'spotify', source_account_id: spotifyAccount, target_provider: 'tidal', target_account_id: tidalAccount, selection: { playlist_ids: [playlist] } });
      expect(tidal.playlistsOf(tidalUser).find((entry) => entry.name === listener.name)?.items.length).toBe(listener.tracks.length);
      // The export is a file of the user's own playlist.
      const exported = await send('POST', '/api/exports', listener.cookie, { source_provider: 'spotify', source_account_id: spotifyAccount, format: 'json', selection: { playlist_ids: [playlist] } });
      expect(exported.statusCode, exported.body.slice(0, 300)).toBe(200);
      expect(exported.body).toContain(listener.name);
      expect(exported.body).toContain(listener.tracks[0]!.title);
      made[who] = { spotifyUser, tidalUser, spotify: spotifyAccount, tidal: tidalAccount, playlist, job };
    }
    // Each user sees only their own accounts and jobs; the other's ids answer 404.
    for (const [who, other] of [['alice', 'bob'], ['bob', 'alice']] as const) {
      const cookie = listeners[who].cookie;
      const accounts = (await get('/api/auth/accounts', cookie)).body;
      const jobs = (await get('/api/migrations', cookie)).body;
      expect(accounts).toContain(made[who]!.spotify);
      expect(jobs).toContain(made[who]!.job);
      for (const id of [made[other]!.spotify, made[other]!.tidal]) expect(accounts).not.toContain(id);
      expect(jobs).not.toContain(made[other]!.job);
      expect((await get(`/api/migrations/${made[other]!.job}`, cookie)).statusCode).toBe(404);
    }

    // Alice shares her playlist; a recipient in a fresh browser (no session of anyone) copies it,
    // connects their own TIDAL account and migrates the copy into it.
    const shared = await send('POST', '/api/shares', alice, { source_provider: 'spotify', source_account_id: made['alice']!.spotify, playlist_id: made['alice']!.playlist });
    expect(shared.statusCode, shared.body).toBe(201);
    const joined = await t.app.http!.inject({ method: 'POST', url: `/api/public/shares/${shared.json<{ token: string }>().token}/recipient`, payload: {} });
    expect(joined.statusCode, joined.body).toBe(201);
    const recipient = cookieFrom(joined, 'opl_share_session')!;
    const copy = joined.json<{ import_id: string; collection_ids: string[] }>();
    const recipientUser = tidal.createAccount({ displayName: 'Recipient on TIDAL', library: { playlists: [] } }).userId;
    const recipientAccount = await connect(recipient, tidal, 'tidal', recipientUser);
    const recipientJob = await migrate(recipient, { source_provider: 'import', source_account_id: copy.import_id, target_provider: 'tidal', target_account_id: recipientAccount, selection: { playlist_ids: [copy.collection_ids[0]] } });
    expect(tidal.playlistsOf(recipientUser).find((entry) => entry.name === listeners.alice.name)?.items.length).toBe(listeners.alice.tracks.length);
    const recipientSees = `${(await get('/api/auth/accounts', recipient)).body} ${(await get('/api/migrations', recipient)).body}`;
    expect(recipientSees).toContain(recipientJob);
    for (const id of Object.values(made).flatMap((entry) => [entry.spotify, entry.tidal, entry.job])) expect(recipientSees).not.toContain(id);
    for (const cookie of [alice, bob]) {
      const sees = `${(await get('/api/auth/accounts', cookie)).body} ${(await get('/api/migrations', cookie)).body}`;
      expect(sees).not.toContain(recipientAccount);
      expect(sees).not.toContain(recipientJob);
    }
  }, 180_000);

  it('never writes codes, tokens or session cookies to the logs', () => {
    const logs = t.logs.join('\n');
    expect(logs).not.toMatch(/opl_session=|opl_oidc_attempt=/);
    expect(logs).not.toMatch(/code=(?!\[REDACTED\])[\w-]{10,}/);
    expect(logs).not.toMatch(/eyJ[\w-]{20,}\.[\w-]+\./);
  });
});

describe('hosted mode without an OpenID provider', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ OPL_DEPLOYMENT_MODE: 'hosted' });
  });
  afterAll(() => t?.close());

  it('keeps refusing owner features with the reason, and has no sign-in routes', async () => {
    const answer = await t.app.http!.inject({ method: 'GET', url: '/api/migrations' });
    expect(answer.statusCode).toBe(403);
    expect(answer.json<Problem>().code).toBe('authentication_not_configured');
    expect((await t.app.http!.inject({ method: 'GET', url: '/api/auth/oidc/login' })).statusCode).toBe(404);
  });
});
