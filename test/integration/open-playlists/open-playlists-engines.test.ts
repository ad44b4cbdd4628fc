import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublisher, createTestRegistry, providerCode, providerManifestSource, publishTestPlugin, TEST_CONNECTION_OP, type TestRegistry } from '../support/plugin-registry.ts';
import { SESSION_GATE_ENV, startTestApp, type TestApp } from '../support/test-app.ts';
import type { OpenPlaylistJson, ProblemJson } from './open-playlists-kit.ts';

/** The interchange API on engines of their own: a provider that cannot be written to, and the owner-session gate. */

describe('POST /open-playlists/export to a provider that cannot be written to', () => {
  let registry: TestRegistry;
  let t: TestApp;
  const inject = async (method: 'GET' | 'POST', url: string, payload?: unknown) => {
    const response = await t.app.http!.inject({ method, url, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
    return { status: response.statusCode, json: response.json<unknown>(), text: response.body };
  };

  beforeAll(async () => {
    const publisher = createPublisher('read-only-publisher');
    registry = await createTestRegistry([publisher]);
    // A provider that reads playlists and writes nothing (READ_PLAYLISTS and READ_TRACKS only).
    await publishTestPlugin(registry, { manifestSource: providerManifestSource('com.example.readonly', '1.0.0', publisher.keyId), code: providerCode(TEST_CONNECTION_OP), publisher });
    t = await startTestApp(registry.env);
  }, 240_000);
  afterAll(async () => {
    await t?.close();
    await registry?.cleanup();
  });

  it('says the provider cannot receive the playlist, and asks to connect nothing', async () => {
    const providers = await inject('GET', '/providers');
    expect((providers.json as { providers: { name: string; can_target: boolean }[] }).providers).toEqual([expect.objectContaining({ name: 'readonly', can_target: false })]);
    const imported = await inject('POST', '/open-playlists/import', { source_provider: 'open_playlist', provider_data: { name: 'Read Only Please', tracks: [{ title: 'A', artist: 'B' }] } });
    expect(imported.status, imported.text).toBe(201);
    const ref = (imported.json as OpenPlaylistJson).id;

    const refused = await inject('POST', '/open-playlists/export', { playlist_id: ref, target_provider: 'readonly' });
    expect(refused.status, refused.text).toBe(422);
    expect(refused.json).toMatchObject({
      code: 'unsupported_target_type',
      reason: 'target_cannot_receive',
      detail: 'Test readonly cannot receive playlists (missing CREATE_PLAYLIST, ADD_TRACKS).',
      unsupported: [{ entity: 'playlists', missing: ['CREATE_PLAYLIST', 'ADD_TRACKS'] }],
    });
    expect((refused.json as ProblemJson)['action']).toBeUndefined();

    // Nothing loaded here can receive it, and an unknown name says so rather than naming readonly.
    const unknown = await inject('POST', '/open-playlists/export', { playlist_id: ref, target_provider: 'nosuch' });
    expect(unknown.status).toBe(422);
    expect(unknown.json).toMatchObject({ reason: 'unknown_target_provider', target_providers: [], detail: 'No provider named "nosuch" is loaded on this instance. No provider loaded here can receive it.' });
    // The source is still checked first.
    const missing = await inject('POST', '/open-playlists/export', { playlist_id: `${ref.slice(0, -2)}:7`, target_provider: 'readonly' });
    expect(missing.status).toBe(404);
  });
});

describe('the interchange API behind the owner-session gate', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(SESSION_GATE_ENV);
  }, 240_000);
  afterAll(async () => {
    await t?.close();
  });

  it('needs an owner session like /api, and refuses cross-origin writes', async () => {
    const list = await t.app.http!.inject({ method: 'GET', url: '/open-playlists/me' });
    expect(list.statusCode).toBe(401);
    expect(list.json<{ code: string }>().code).toBe('session_required');
    const write = await t.app.http!.inject({ method: 'POST', url: '/open-playlists/import', headers: { origin: 'https://evil.test' }, payload: { source_provider: 'open_playlist', provider_data: { name: 'x' } } });
    expect(write.statusCode).toBe(403);
    expect(write.json<{ code: string }>().code).toBe('cross_origin_request');
    // Both answers are in the routes' OpenAPI entries.
    const doc = (await t.app.http!.inject({ method: 'GET', url: '/openapi.json' })).json<{ paths: Record<string, Record<string, { responses: Record<string, unknown> }>> }>();
    expect(Object.keys(doc.paths['/open-playlists/{id}']!['get']!.responses)).toContain('401');
    for (const route of ['/open-playlists/import', '/open-playlists/export']) expect(Object.keys(doc.paths[route]!['post']!.responses)).toEqual(expect.arrayContaining(['401', '403']));
    const login = await t.app.http!.inject({ method: 'POST', url: '/api/session', payload: { secret: SESSION_GATE_ENV.OPL_OWNER_SECRET } });
    const cookie = /opl_session=[^;]+/.exec(String(login.headers['set-cookie']))![0];
    const allowed = await t.app.http!.inject({ method: 'GET', url: '/open-playlists/me', headers: { cookie } });
    expect(allowed.statusCode).toBe(200);
    expect(allowed.json()).toEqual([]);
  });
});
