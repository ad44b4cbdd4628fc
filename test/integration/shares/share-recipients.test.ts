import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAvailableOn, seedCatalog, type SeedTrack } from '../../fakes/seed-catalog.ts';
import type { FakeAccountTokens } from '../../fakes/fake-provider.ts';
import { startMigrationHarness, type JobJson, type MigrationHarness } from '../migrations/migration-harness.ts';

/**
 * A share recipient end to end on a self-hosted instance (no session gate, so every request
 * without a share session is the owner's), against the Spotify and TIDAL fakes: the owner shares a
 * playlist; a recipient opens it and copies it ("Copy to my account"), which gives them a share
 * session; under it they connect their own TIDAL account and migrate their copy into it. The owner's
 * accounts, imports, shares and jobs stay out of the recipient's reach and the recipient's out of
 * the owner's; revoking the share ends the session for new work.
 */

const catalog = seedCatalog();
const songs = [...catalog.tracks.values()].filter((track) => track.mediaType === 'track' && track.isrc !== null && isAvailableOn(track, 'spotify') && isAvailableOn(track, 'tidal'));
const artistOf = (track: SeedTrack) => catalog.artists.get(track.artistKeys[0]!)!.name;
const shared = songs.slice(0, 3);

let h: MigrationHarness;
let recipientUser: FakeAccountTokens;
const state: { ownerImport?: string; shareId?: string; token?: string; cookie?: string; copy?: string; collection?: string; account?: string; job?: string } = {};

/** A request of the recipient: their share session cookie, nothing else. */
const asRecipient = (path: string, init: RequestInit = {}) => h.api(path, { ...init, headers: { cookie: state.cookie!, ...init.headers } });

beforeAll(async () => {
  h = await startMigrationHarness({
    spotifyLibrary: { playlists: [{ name: 'Owner Spotify', trackKeys: songs.slice(5, 7).map((track) => track.key) }] },
    tidalLibrary: { playlists: [{ name: 'Owner Tidal', trackKeys: songs.slice(7, 9).map((track) => track.key) }] },
  });
  recipientUser = h.tidal.createAccount({ displayName: 'Recipient Listener', library: { playlists: [] } });
  const pasted = await h.api('/api/imports/text-preview', { method: 'POST', body: JSON.stringify({ text: shared.map((track) => `${artistOf(track)} - ${track.title}`).join('\n'), name: 'Shared Evening' }) });
  expect(pasted.status, pasted.text).toBe(201);
  state.ownerImport = (pasted.json as { id: string }).id;
  const share = await h.api('/api/shares', { method: 'POST', body: JSON.stringify({ source_provider: 'import', source_account_id: state.ownerImport, playlist_id: '0' }) });
  expect(share.status, share.text).toBe(201);
  state.shareId = (share.json as { id: string }).id;
  state.token = (share.json as { token: string }).token;
}, 300_000);

afterAll(async () => {
  await h?.close();
});

describe('a share recipient', () => {
  it('opening a share and copying it gives a share session bound to that share, and a copy of their own', async () => {
    const refused = await h.api(`/api/public/shares/${state.token}/recipient`, { method: 'POST', body: '{}', headers: { origin: 'https://elsewhere.example' } });
    expect(refused.status, refused.text).toBe(403);
    const unknown = await h.api(`/api/public/shares/${'x'.repeat(43)}/recipient`, { method: 'POST', body: '{}' });
    expect(unknown.status).toBe(404);
    // No cross-site form can join for a browser: the body must be JSON.
    expect((await h.api(`/api/public/shares/${state.token}/recipient`, { method: 'POST', body: 'a=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } })).status).toBe(415);

    const joined = await h.api(`/api/public/shares/${state.token}/recipient`, { method: 'POST', body: '{}' });
    expect(joined.status, joined.text).toBe(201);
    const setCookie = joined.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/^opl_share_session=[A-Za-z0-9_-]{43};/);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    expect(setCookie).not.toMatch(/Secure/); // plain http here; https base URLs get Secure
    state.cookie = setCookie.split(';')[0]!;
    const body = joined.json as { share_id: string; share_name: string; import_id: string; collection_ids: string[] };
    expect(body).toMatchObject({ share_id: state.shareId, share_name: 'Shared Evening' });
    expect(body.import_id).not.toBe(state.ownerImport);
    state.copy = body.import_id;
    state.collection = body.collection_ids[0]!;
    // The session is stored hashed: the cookie's value is nowhere in the database.
    const rows = await h.app.app.services.database.orm.em.getConnection().execute<Record<string, unknown>[]>('select token_hash from share_recipient');
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(state.cookie.split('=')[1]);

    const me = await asRecipient('/api/me');
    expect(me.json).toMatchObject({ owner_id: expect.stringMatching(/^recipient:/), recipient: { share_id: state.shareId, share_name: 'Shared Evening', status: 'active' }, user: null });
    const copy = await asRecipient(`/api/imports/${state.copy}`);
    expect(copy.status, copy.text).toBe(200);
    expect(copy.text).toContain(shared[0]!.title);
    // Copying again under the same session keeps the session (no new cookie) and makes another copy.
    const again = await asRecipient(`/api/public/shares/${state.token}/recipient`, { method: 'POST', body: '{}' });
    expect(again.status).toBe(201);
    expect(again.headers.get('set-cookie')).toBeNull();
    expect((again.json as { import_id: string }).import_id).not.toBe(state.copy);
  });

  it('under the share session reaches nothing of the owner’s: accounts, imports, shares, jobs, everything else', async () => {
    const accounts = await asRecipient('/api/auth/accounts');
    expect(accounts.status).toBe(200);
    expect(accounts.text).not.toContain(h.spotifyAccount);
    expect(accounts.text).not.toContain(h.tidalAccount);
    const imports = await asRecipient('/api/imports');
    expect(imports.text).not.toContain(state.ownerImport);
    for (const path of [`/api/imports/${state.ownerImport}`, `/api/auth/accounts/${h.tidalAccount}`, `/api/playlists?account_id=${h.spotifyAccount}`, '/api/shares', '/api/sessions', '/api/exports', '/api/snapshots', '/api/library/overview', '/api/admin/plugins', '/api/syncs']) {
      const answer = await asRecipient(path);
      expect(answer.status, `${path}: ${answer.text.slice(0, 200)}`).toBe(404);
      expect(answer.text).not.toMatch(/Owner Spotify|Owner Tidal|Source Listener|Target Listener/);
    }
    const paste = await asRecipient('/api/imports/text-preview', { method: 'POST', body: JSON.stringify({ text: 'A - B' }) });
    expect(paste.status).toBe(404);
    const share = await asRecipient('/api/shares', { method: 'POST', body: JSON.stringify({ source_provider: 'import', source_account_id: state.copy, playlist_id: '0' }) });
    expect(share.status).toBe(404);
    // Migrating from or into the owner's accounts is as unknown to the recipient as any other id.
    const intoOwner = await asRecipient('/api/migrations', { method: 'POST', body: JSON.stringify({ source_provider: 'import', source_account_id: state.copy, target_provider: 'tidal', target_account_id: h.tidalAccount, selection: { playlist_ids: [state.collection] }, acknowledge_warnings: true }) });
    expect(intoOwner.status, intoOwner.text).toBe(404);
  });

  it('connects their own TIDAL account and migrates the shared playlist into it; the owner sees neither', async () => {
    h.tidal.setAuthorizeUser(recipientUser.userId);
    try {
      const begin = await asRecipient('/api/auth/tidal/begin', { method: 'POST', body: '{}' });
      expect(begin.status, begin.text).toBe(200);
      const authorize = await fetch((begin.json as { redirect_url: string }).redirect_url, { redirect: 'manual' });
      // The provider's redirect back carries no cookie: the attempt's state names the recipient.
      const landed = await fetch(authorize.headers.get('location')!, { redirect: 'manual' });
      state.account = /connected=([0-9a-f-]{36})/.exec(landed.headers.get('location') ?? '')?.[1];
      expect(state.account, landed.headers.get('location') ?? '').toBeDefined();
    } finally {
      h.tidal.setAuthorizeUser(h.tidalUser.userId);
    }
    const mine = await asRecipient('/api/auth/accounts');
    expect(mine.text).toContain(state.account);

    const started = await asRecipient('/api/migrations', { method: 'POST', body: JSON.stringify({ source_provider: 'import', source_account_id: state.copy, target_provider: 'tidal', target_account_id: state.account, selection: { playlist_ids: [state.collection] }, acknowledge_warnings: true }) });
    expect(started.status, started.text).toBe(202);
    state.job = (started.json as { id: string }).id;
    const settled = async () => {
      let job: JobJson | null = null;
      for (let attempt = 0; attempt < 300 && !['completed', 'failed', 'awaiting_review'].includes(job?.status ?? ''); attempt++) {
        if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 200));
        job = (await asRecipient(`/api/migrations/${state.job}`)).json as JobJson;
      }
      return job;
    };
    let job = await settled();
    // A song with an equally good twin on TIDAL waits for review: the recipient reviews their own job.
    if (job?.status === 'awaiting_review') {
      const approved = await asRecipient(`/api/migrations/${state.job}/items/review`, { method: 'POST', body: JSON.stringify({ action: 'approve', item_ids: [] }) });
      expect(approved.status, approved.text).toBe(200);
      job = await settled();
    }
    expect(job?.status, JSON.stringify(job)).toBe('completed');
    const written = h.tidal.playlistsOf(recipientUser.userId).find((playlist) => playlist.name === 'Shared Evening');
    expect(written?.items.length).toBe(shared.length);
    expect(h.tidal.playlistsOf(h.tidalUser.userId).map((playlist) => playlist.name)).not.toContain('Shared Evening');
    expect((await asRecipient(`/api/migrations/${state.job}/items`)).status).toBe(200);

    // The owner (any request without the share session here) sees nothing of the recipient's.
    expect((await h.api('/api/auth/accounts')).text).not.toContain(state.account);
    expect((await h.api('/api/migrations')).text).not.toContain(state.job);
    expect((await h.api('/api/imports')).text).not.toContain(state.copy);
    for (const path of [`/api/migrations/${state.job}`, `/api/migrations/${state.job}/items`, `/api/auth/accounts/${state.account}`, `/api/imports/${state.copy}`, `/api/playlists?account_id=${state.account}`]) {
      expect((await h.api(path)).status, path).toBe(404);
    }
    expect((await h.api(`/api/auth/accounts/${state.account}`, { method: 'DELETE' })).status).toBe(404);
    expect((await asRecipient('/api/auth/accounts')).text).toContain(state.account);
  }, 120_000);

  it('a second recipient of the same share sees nothing of the first’s', async () => {
    const joined = await h.api(`/api/public/shares/${state.token}/recipient`, { method: 'POST', body: '{}' });
    const other = (joined.headers.get('set-cookie') ?? '').split(';')[0]!;
    const asOther = (path: string) => h.api(path, { headers: { cookie: other } });
    expect((await asOther('/api/auth/accounts')).text).not.toContain(state.account);
    expect((await asOther('/api/migrations')).text).not.toContain(state.job);
    for (const path of [`/api/migrations/${state.job}`, `/api/auth/accounts/${state.account}`, `/api/imports/${state.copy}`]) expect((await asOther(path)).status, path).toBe(404);
  });

  it('revoking the share ends the recipient session for new work, with a clear reason', async () => {
    expect((await h.api(`/api/shares/${state.shareId}`, { method: 'DELETE' })).status).toBe(204);
    const me = await asRecipient('/api/me');
    expect(me.json).toMatchObject({ recipient: { share_id: state.shareId, status: 'ended' } });
    for (const [path, init] of [
      ['/api/migrations', { method: 'POST', body: JSON.stringify({ source_provider: 'import', source_account_id: state.copy, target_provider: 'tidal', target_account_id: state.account, selection: { playlist_ids: [state.collection] }, acknowledge_warnings: true }) }],
      ['/api/auth/tidal/begin', { method: 'POST', body: '{}' }],
      [`/api/migrations/${state.job}`, {}],
      ['/api/auth/accounts', {}],
    ] as const) {
      const answer = await asRecipient(path, init);
      expect(answer.status, `${path}: ${answer.text}`).toBe(410);
      expect(answer.json).toMatchObject({ code: 'share_ended' });
      expect((answer.json as { detail: string }).detail).toMatch(/revoked or has expired/);
    }
    // Joining again is refused like any link that no longer answers.
    expect((await asRecipient(`/api/public/shares/${state.token}/recipient`, { method: 'POST', body: '{}' })).status).toBe(404);
    // Leaving clears the cookie and forgets the session.
    const left = await asRecipient('/api/public/share-session', { method: 'DELETE' });
    expect(left.status).toBe(204);
    expect(left.headers.get('set-cookie')).toMatch(/^opl_share_session=;/);
    const rows = await h.app.app.services.database.orm.em.getConnection().execute<Record<string, unknown>[]>('select count(*)::int as n from share_recipient');
    expect(rows[0]!['n']).toBe(1);
  });
});
