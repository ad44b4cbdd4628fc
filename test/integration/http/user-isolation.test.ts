import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestIdp, type TestIdp } from '../../fakes/oidc/oidc-test-provider.ts';
import { firstPartyPlugins } from '../support/first-party-plugins.ts';
import { hostedOidcEnv, OIDC_REDIRECT_URI, signInAs } from '../support/oidc-session.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

/**
 * Isolation sweep of a hosted instance: two users signed in through the OpenID provider. User A
 * creates what can be made without a provider account (an import, a share of it) and has a
 * session; A's rows that need a provider account (an account, a migration job, a draft, an
 * organizer job, a snapshot profile, a sync rule) are written as the engine stores them. Then, for every route of `/openapi.json` whose path takes an id, user B calls it with
 * A's ids (a fresh id where A has none of that kind). Nothing answers B with A's data or acts on
 * it: reads and deletes are 404, bodies B sends are refused (404, or 400/422 when the body is
 * checked before the owner), and A's data is unchanged afterwards. The route list comes from the
 * OpenAPI document, so a new route is swept without editing this test.
 *
 * The same sweep runs for share recipients (spec Authentication 9): Carol and Dave open A's share
 * and copy it (a share session each, no user). Carol, with A's ids, gets nothing of A's; A, B and
 * Dave, with Carol's ids (her copy, her account, her job), get nothing of Carol's. Revoking the
 * share then ends Carol's session for new work.
 */

type Operation = { parameters?: Array<{ in: string; name: string; required?: boolean; schema?: unknown }> };
type OpenApi = { paths: Record<string, Record<string, Operation>> };

const ALICE_SECRETS = /Alice’s evening|La Femme|Alice on Spotify|alice-at-spotify|Alice draft|Alice profile/;
const CAROL_SECRETS = /Carol on TIDAL|carol-at-tidal/;

/** Routes that are public by design (share tokens, schemas, a provider's redirect) or instance-wide admin routes. */
const NOT_OWNER_ROUTES = [/^\/api\/public\//, /^\/share\//, /^\/schemas\//, /^\/api\/auth\/\{provider\}\/callback$/, /^\/api\/admin\//];

describe('two users of a hosted instance never reach each other’s data', () => {
  let idp: TestIdp;
  let t: TestApp;
  let alice: string;
  let bob: string;
  let plugins: Awaited<ReturnType<typeof firstPartyPlugins>>;
  const ids: Record<string, string> = {};
  /** Carol: a recipient of Alice's share (no user, a share session); Dave: another recipient of it. */
  let carol: string;
  let dave: string;
  const carolIds: Record<string, string> = {};

  const call = (method: string, url: string, cookie: string, payload?: unknown) =>
    t.app.http!.inject({ method: method as 'GET', url, headers: { cookie }, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });

  beforeAll(async () => {
    idp = await startTestIdp({ redirectUri: OIDC_REDIRECT_URI });
    idp.users.set('alice', { email: 'alice@example.org', groups: ['opl-admins'] });
    idp.users.set('bob', { email: 'bob@example.org' });
    plugins = await firstPartyPlugins();
    t = await startTestApp({ ...plugins.env, ...hostedOidcEnv(idp, { OPL_OIDC_ADMIN_GROUPS: 'opl-admins' }) }, { http: true, worker: false }, { oidcFetch: idp.fetch });
    alice = await signInAs(t, idp, 'alice');
    bob = await signInAs(t, idp, 'bob');

    // Alice administers the instance too: she admits the text format plugin (her import) and the
    // Open Playlist JSON reader (a recipient's copy of a share) to the allow-list.
    type Admin = { loaded: Array<{ id: string }>; refused: Array<{ id: string; key_id: string | null }> };
    const refused = (await call('GET', '/api/admin/plugins', alice)).json<Admin>().refused;
    for (const id of ['opl.format.txt', 'opl.format.json']) {
      const plugin = refused.find((entry) => entry.id === id)!;
      expect((await call('POST', '/api/admin/plugins/allow-list', alice, { plugin_id: plugin.id, key_id: plugin.key_id, version_range: '*' })).statusCode).toBe(201);
    }
    expect((await call('POST', '/api/admin/plugins/reload', alice)).statusCode).toBeLessThan(300);
    expect((await call('GET', '/api/admin/plugins', alice)).json<Admin>().loaded.map((plugin) => plugin.id)).toEqual(expect.arrayContaining(['opl.format.txt', 'opl.format.json']));

    const imported = await call('POST', '/api/imports/text-preview', alice, { text: 'Daft Punk - One More Time\nAir - La Femme d’Argent', name: 'Alice’s evening' });
    expect(imported.statusCode, imported.body).toBe(201);
    ids['import'] = imported.json<{ id: string }>().id;
    const record = (await call('GET', `/api/imports/${ids['import']}`, alice)).json<{ collection_ids: string[] }>();
    const shared = await call('POST', '/api/shares', alice, { source_provider: 'import', source_account_id: ids['import'], playlist_id: record.collection_ids[0] });
    expect(shared.statusCode, shared.body).toBe(201);
    ids['share'] = shared.json<{ id: string }>().id;
    const shareToken = shared.json<{ token: string }>().token;
    ids['session'] = (await call('GET', '/api/session', alice)).json<{ session: { id: string } }>().session.id;
    ids['owner'] = (await call('GET', '/api/me', alice)).json<{ owner_id: string }>().owner_id;
    await seedProviderRows();

    const join = async () => {
      const joined = await t.app.http!.inject({ method: 'POST', url: `/api/public/shares/${shareToken}/recipient`, payload: {} });
      expect(joined.statusCode, joined.body).toBe(201);
      return { cookie: String(joined.headers['set-cookie']).split(';')[0]!, copy: joined.json<{ import_id: string }>().import_id };
    };
    const carolJoined = await join();
    carol = carolJoined.cookie;
    carolIds['import'] = carolJoined.copy;
    dave = (await join()).cookie;
    carolIds['owner'] = (await call('GET', '/api/me', carol)).json<{ owner_id: string }>().owner_id;
    await seedRecipientRows();
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await idp?.close();
    await plugins?.remove();
  });

  const sql = async (text: string, values: unknown[] = []) => t.app.services.database.orm.em.getConnection().execute<Record<string, unknown>[]>(text, values);

  /**
   * A's rows of the kinds that need a connected provider account to make through the API (this
   * instance has no provider): written as the engine stores them, owned by A's user id.
   */
  async function seedProviderRows(): Promise<void> {
    const owner = ids['owner']!;
    const [account] = await sql(`insert into provider_account (owner_id, provider, provider_user_id, display_name) values (?, 'spotify', 'alice-at-spotify', 'Alice on Spotify') returning id`, [owner]);
    ids['account'] = String(account!['id']);
    const [job] = await sql(
      `insert into migration_job (owner_id, source_provider, source_account_id, target_provider, target_account_id, selection, status, outcome) values (?, 'spotify', ?, 'spotify', ?, '{"playlists": []}'::jsonb, 'awaiting_review', 'running') returning id`,
      [owner, ids['account'], ids['account']],
    );
    ids['job'] = String(job!['id']);
    const [draft] = await sql(`insert into generation_draft (owner_id, target_provider, target_account_id, name, expires_at) values (?, 'spotify', ?, 'Alice draft', now() + interval '1 day') returning id`, [owner, ids['account']]);
    ids['draft'] = String(draft!['id']);
    const [organizer] = await sql(`insert into organizer_job (owner_id, provider, account_id, mode, preflight, confirmed_at) values (?, 'spotify', ?, 'remove_tracks', '{}'::jsonb, now()) returning id`, [owner, ids['account']]);
    ids['organizer'] = String(organizer!['id']);
    const [profile] = await sql(`insert into snapshot_profile (owner_id, name, selection) values (?, 'Alice profile', '{}'::jsonb) returning id`, [owner]);
    ids['profile'] = String(profile!['id']);
    const [rule] = await sql(
      `insert into sync_rule (owner_id, origin_job_id, source_provider, source_account_id, source_playlist_id, target_provider, target_account_id, target_playlist_id, interval_minutes) values (?, ?, 'spotify', ?, 'p1', 'spotify', ?, 'p2', 60) returning id`,
      [owner, ids['job'], ids['account'], ids['account']],
    );
    ids['rule'] = String(rule!['id']);
  }

  /** Carol's own account and migration job (into it, from her copy), as the engine stores them. */
  async function seedRecipientRows(): Promise<void> {
    const owner = carolIds['owner']!;
    const [account] = await sql(`insert into provider_account (owner_id, provider, provider_user_id, display_name) values (?, 'tidal', 'carol-at-tidal', 'Carol on TIDAL') returning id`, [owner]);
    carolIds['account'] = String(account!['id']);
    const [job] = await sql(
      `insert into migration_job (owner_id, source_provider, source_account_id, source_kind, target_provider, target_account_id, selection, status, outcome) values (?, 'import', ?, 'import', 'tidal', ?, '{"playlists": []}'::jsonb, 'awaiting_review', 'running') returning id`,
      [owner, carolIds['import'], carolIds['account']],
    );
    carolIds['job'] = String(job!['id']);
  }

  const carolState = async () => ({
    accounts: await sql('select id, status, display_name from provider_account where owner_id = ? order by id', [carolIds['owner']]),
    jobs: await sql('select id, status, outcome from migration_job where owner_id = ? order by id', [carolIds['owner']]),
    imports: await sql('select id, state from import_record where owner_id = ? order by id', [carolIds['owner']]),
  });

  /**
   * Calls every route of `/openapi.json` whose path takes an id with someone else's ids (`idFor`),
   * as `cookie`; answers what was swept and every answer that was not a refusal or that named
   * something matching `secrets`.
   */
  async function sweep(cookie: string, idFor: (path: string, parameter: string) => string, secrets: RegExp): Promise<{ swept: string[]; leaks: string[] }> {
    const document = (await t.app.http!.inject({ method: 'GET', url: '/openapi.json' })).json<OpenApi>();
    const swept: string[] = [];
    const leaks: string[] = [];
    for (const [path, operations] of Object.entries(document.paths)) {
      if (!path.includes('{') || NOT_OWNER_ROUTES.some((pattern) => pattern.test(path))) continue;
      const url = path.replace(/\{([^}]+)\}/g, (_match, parameter: string) => encodeURIComponent(idFor(path, parameter)));
      for (const [method, operation] of Object.entries(operations)) {
        const verb = method.toUpperCase();
        // Required query parameters get values too (ids as ids), so the owner check is what answers.
        const query = new URLSearchParams((operation.parameters ?? []).filter((parameter) => parameter.in === 'query' && parameter.required).map((parameter) => [parameter.name, queryValue(idFor, path, parameter.name, parameter.schema)]));
        const answer = await call(verb, `${url}${query.size > 0 ? `?${query}` : ''}`, cookie, ['POST', 'PUT', 'PATCH'].includes(verb) ? {} : undefined);
        swept.push(`${verb} ${path}`);
        const refused = verb === 'GET' || verb === 'DELETE' ? answer.statusCode === 404 : [400, 404, 422].includes(answer.statusCode);
        if (!refused || secrets.test(answer.body)) leaks.push(`${verb} ${path} → ${answer.statusCode} ${answer.body.slice(0, 200)}`);
      }
    }
    return { swept, leaks };
  }

  /** What A's rows look like: B's sweep must change none of it. */
  const aliceState = async () => ({
    accounts: await sql('select id, status, display_name from provider_account where owner_id = ? order by id', [ids['owner']]),
    jobs: await sql('select id, status, outcome from migration_job where owner_id = ? order by id', [ids['owner']]),
    drafts: await sql('select id, name, status from generation_draft where owner_id = ? order by id', [ids['owner']]),
    organizer: await sql('select id, status from organizer_job where owner_id = ? order by id', [ids['owner']]),
    profiles: await sql('select id, name from snapshot_profile where owner_id = ? order by id', [ids['owner']]),
    rules: await sql('select id, status from sync_rule where owner_id = ? order by id', [ids['owner']]),
  });

  /** A's id for a path parameter, by what the path names; a fresh id where A has none of that kind. */
  const idFor = (path: string, parameter: string): string => idIn(ids, path, parameter);

  /** The id `of` someone has for a path parameter; a fresh id where they have none of that kind. */
  function idIn(of: Record<string, string>, path: string, parameter: string): string {
    const known = new Proxy(of, { get: (target, key: string) => target[key] ?? randomUUID() });
    if (path.startsWith('/api/imports/')) return known['import']!;
    if (path.startsWith('/api/shares/')) return known['share']!;
    if (path.startsWith('/api/sessions/')) return known['session']!;
    if (parameter === 'account_id' || path.startsWith('/api/auth/accounts/')) return known['account']!;
    if (parameter === 'job_id') return path.startsWith('/api/organizer/') ? known['organizer']! : known['job']!;
    if (parameter === 'draft_id') return known['draft']!;
    if (parameter === 'profile_id') return known['profile']!;
    if (parameter === 'rule_id') return known['rule']!;
    return parameter === 'provider' ? 'spotify' : randomUUID();
  }

  /** A required query value: an id as an id, another id-shaped value (a uuid schema) as a fresh one, else words. */
  function queryValue(idOf: (path: string, parameter: string) => string, path: string, name: string, schema: unknown): string {
    if (name.endsWith('id')) return idOf(path, name);
    return /"format":"uuid"/.test(JSON.stringify(schema ?? {})) ? randomUUID() : 'one more time';
  }

  it('A herself reaches each of her rows, so B’s 404s below are about B', async () => {
    for (const url of [`/api/imports/${ids['import']}`, `/api/migrations/${ids['job']}`, `/api/generator/drafts/${ids['draft']}`, `/api/organizer/jobs/${ids['organizer']}`, `/api/syncs/${ids['rule']}`]) {
      const answer = await call('GET', url, alice);
      expect(answer.statusCode, `${url}: ${answer.body.slice(0, 300)}`).toBe(200);
    }
    expect((await call('GET', '/api/auth/accounts', alice)).body).toContain(ids['account']);
    // The seeded snapshot profile has no real selection (A has no library), so only its row is compared below.
  });

  it('user B gets nothing of A’s from any route that takes an id', async () => {
    const before = await aliceState();
    expect(before.accounts).toHaveLength(1);
    // Her import's name or tracks in an answer to B would be a leak (her ids B sent may be echoed).
    const { swept, leaks } = await sweep(bob, idFor, ALICE_SECRETS);
    expect(leaks).toEqual([]);
    expect(await aliceState()).toEqual(before);
    // The sweep really covered the id routes of every area.
    for (const route of ['GET /api/imports/{id}', 'DELETE /api/shares/{share}', 'DELETE /api/sessions/{session_id}', 'GET /api/migrations/{job_id}', 'GET /api/generator/drafts/{draft_id}', 'GET /api/snapshots/{snapshot_id}', 'GET /api/syncs/{rule_id}', 'GET /api/organizer/jobs/{job_id}', 'DELETE /api/auth/accounts/{id}']) {
      expect(swept).toContain(route);
    }
  }, 180_000);

  it('A’s data is unchanged after B’s sweep, and B’s lists hold nothing of A’s', async () => {
    expect((await call('GET', `/api/imports/${ids['import']}`, alice)).statusCode).toBe(200);
    const shares = (await call('GET', '/api/shares', alice)).json<{ shares?: Array<{ id: string }> } | Array<{ id: string }>>();
    expect(JSON.stringify(shares)).toContain(ids['share']);
    expect((await call('GET', '/api/me', alice)).statusCode).toBe(200);
    for (const list of ['/api/imports', '/api/shares', '/api/migrations', '/api/auth/accounts', '/api/generator/drafts', '/api/syncs', '/api/organizer/jobs', '/api/snapshots', '/api/snapshots/profiles', '/api/sessions']) {
      const answer = await call('GET', list, bob);
      expect(answer.statusCode, `${list}: ${answer.body}`).toBe(200);
      expect(answer.body).not.toContain(ids['import']);
      expect(answer.body).not.toContain(ids['share']);
      expect(answer.body).not.toContain(ids['session']);
      for (const kind of ['account', 'job', 'draft', 'organizer', 'profile', 'rule']) expect(answer.body).not.toContain(ids[kind]);
    }
  });

  it('a share recipient of A’s share gets nothing of A’s from any route that takes an id', async () => {
    const before = await aliceState();
    const { swept, leaks } = await sweep(carol, idFor, ALICE_SECRETS);
    expect(leaks).toEqual([]);
    expect(await aliceState()).toEqual(before);
    expect(swept).toContain('GET /api/migrations/{job_id}');
    expect(swept).toContain('DELETE /api/auth/accounts/{id}');
    // The recipient's own copy is theirs to read: the sweep's 404s are about A's ids.
    expect((await call('GET', `/api/imports/${carolIds['import']}`, carol)).statusCode).toBe(200);
    expect((await call('GET', `/api/migrations/${carolIds['job']}`, carol)).statusCode).toBe(200);
    for (const list of ['/api/imports', '/api/migrations', '/api/auth/accounts']) {
      const answer = await call('GET', list, carol);
      expect(answer.statusCode, `${list}: ${answer.body}`).toBe(200);
      for (const kind of ['import', 'account', 'job']) expect(answer.body).not.toContain(ids[kind]);
    }
  }, 180_000);

  it('A, B and another recipient of the same share get nothing of the recipient’s from any route that takes an id', async () => {
    const before = await carolState();
    expect(before.accounts).toHaveLength(1);
    expect(before.imports).toHaveLength(1);
    const carolsIdFor = (path: string, parameter: string) => idIn(carolIds, path, parameter);
    for (const [who, cookie] of [['alice', alice], ['bob', bob], ['dave', dave]] as const) {
      const { leaks } = await sweep(cookie, carolsIdFor, CAROL_SECRETS);
      expect(leaks, who).toEqual([]);
      for (const list of ['/api/imports', '/api/migrations', '/api/auth/accounts']) {
        const answer = await call('GET', list, cookie);
        expect(answer.statusCode, `${who} ${list}: ${answer.body}`).toBe(200);
        for (const kind of ['import', 'account', 'job']) expect(answer.body, `${who} ${list}`).not.toContain(carolIds[kind]);
      }
    }
    expect(await carolState()).toEqual(before);
  }, 300_000);

  it('revoking the share ends its recipients’ sessions for new work (last: it revokes A’s share)', async () => {
    expect((await call('DELETE', `/api/shares/${ids['share']}`, alice)).statusCode).toBe(204);
    const refused = await call('GET', '/api/auth/accounts', carol);
    expect(refused.statusCode).toBe(410);
    expect(refused.json()).toMatchObject({ code: 'share_ended' });
    expect((await call('GET', '/api/me', carol)).json()).toMatchObject({ owner_id: carolIds['owner'], recipient: { status: 'ended' }, user: null });
    // A signed-in user stays themself whatever share session their browser also holds.
    const both = `${alice}; ${carol}`;
    expect((await call('GET', '/api/me', both)).json()).toMatchObject({ owner_id: ids['owner'], recipient: null });
  });
});
