import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readTrustStore, revokeKeyInTrustStore, revokeRegistryKey, writeTrustStore } from '@opl/plugin-sdk/tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import {
  addRegistryKey,
  createPublisher,
  createTestRegistry,
  providerCode,
  providerManifestSource,
  publishTestPlugin,
  TEST_CONNECTION_OP,
  unpublish,
  type TestPublisher,
  type TestRegistry,
} from '../support/plugin-registry.ts';

interface AdminView {
  mode: string;
  loaded: Array<{ id: string; version: string; signed: boolean; test_only_key: boolean }>;
  refused: Array<{ id: string; version: string | null; reason: string; detail: string; key_id: string | null }>;
  allow_list: Array<{ id: string; plugin_id: string }>;
}

async function adminView(app: TestApp, method: 'GET' | 'POST' = 'GET', headers: Record<string, string> = {}): Promise<AdminView> {
  const response = await app.app.http!.inject({ method, url: method === 'GET' ? '/api/admin/plugins' : '/api/admin/plugins/reload', headers });
  expect(response.statusCode).toBe(200);
  return response.json<AdminView>();
}

function refusalOf(view: AdminView, id: string) {
  return view.refused.find((entry) => entry.id === id);
}

const code = providerCode(TEST_CONNECTION_OP);

describe('trust policy: every refusal says why (self-host)', () => {
  let publisher: TestPublisher;
  let stranger: TestPublisher;
  let registry: TestRegistry;
  let app: TestApp;

  beforeAll(async () => {
    publisher = createPublisher('trusted-publisher');
    stranger = createPublisher('stranger-key');
    registry = await createTestRegistry([publisher]);
    const publish = (id: string, version = '1.0.0', by: TestPublisher | null = publisher, overrides: Record<string, unknown> = {}) =>
      publishTestPlugin(registry, { manifestSource: providerManifestSource(id, version, by?.keyId ?? publisher.keyId, overrides), code, publisher: by });

    await publish('com.example.good');
    // A byte of the code changed after signing.
    const tampered = await publish('com.example.tampered');
    await writeFile(join(tampered, 'plugin.js'), code.replace('acct-1', 'acct-2'));
    // A file the manifest does not list.
    const extra = await publish('com.example.extra');
    await writeFile(join(extra, 'payload.js'), 'globalThis.evil = true;');
    // The manifest edited after signing (a new network grant slipped in).
    const edited = await publish('com.example.edited');
    const manifest = JSON.parse(await readFile(join(edited, 'manifest.json'), 'utf8')) as { network: unknown[] };
    manifest.network.push({ origin: 'https://evil.test', path_prefix: '/', methods: ['GET'], reason: 'exfiltrate' });
    await writeFile(join(edited, 'manifest.json'), JSON.stringify(manifest));
    // Signed by a key this instance does not trust.
    await publish('com.example.wrong-key', '1.0.0', stranger);
    // Signed by a key the instance trusted and then revoked.
    const revoked = createPublisher('revoked-publisher');
    await publish('com.example.revoked', '1.0.0', revoked);
    let store = await readTrustStore(registry.trustFile);
    store = revokeKeyInTrustStore(
      (await import('@opl/plugin-sdk/tools')).trustKey(store, revoked.record, { testOnly: true }),
      revoked.keyId,
      'key leaked in a CI log',
    );
    await writeTrustStore(registry.trustFile, store);
    // Revoked by its publisher in the registry (the trust store still lists it).
    const selfRevoked = createPublisher('self-revoked');
    await writeTrustStore(registry.trustFile, (await import('@opl/plugin-sdk/tools')).trustKey(await readTrustStore(registry.trustFile), selfRevoked.record, { testOnly: true }));
    await publish('com.example.self-revoked', '1.0.0', selfRevoked);
    await revokeRegistryKey(registry.dir, selfRevoked.keyId, 'publisher rotated after a compromise');
    // Needs a future engine.
    await publish('com.example.future', '2.0.0', publisher, { engines: { opl: '>=99.0.0' } });
    // Unsigned.
    await publishTestPlugin(registry, { manifestSource: providerManifestSource('com.example.unsigned', '1.0.0', publisher.keyId), code, publisher: null });
    // Two versions; the older one only fits this engine when the newer needs a future engine.
    await publish('com.example.fallback', '1.0.0');
    await publish('com.example.fallback', '1.1.0', publisher, { engines: { opl: '>=99.0.0' } });
    // Will be rolled back below.
    await publish('com.example.rollback', '1.0.0');
    await publish('com.example.rollback', '1.1.0');
    await addRegistryKey(registry, stranger);

    app = await startTestApp(registry.env);
  });

  afterAll(async () => {
    await app?.close();
    await registry?.cleanup();
  });

  it('loads a plugin signed by a trusted key and lists it with its publisher', async () => {
    const view = await adminView(app);
    const good = view.loaded.find((plugin) => plugin.id === 'com.example.good');
    expect(good).toMatchObject({ version: '1.0.0', signed: true, test_only_key: true });
    const result = await app.app.services.plugins.host.call('com.example.good', 'testConnection', {});
    expect(result).toMatchObject({ ok: true, account_id: 'acct-1' });
  });

  it.each([
    ['com.example.tampered', 'modified_file', /plugin\.js was modified/],
    ['com.example.extra', 'unlisted_file', /payload\.js/],
    ['com.example.edited', 'modified_file', /manifest\.json .*changed after it was signed/],
    ['com.example.wrong-key', 'unknown_key', /stranger-key/],
    ['com.example.revoked', 'revoked_key', /revoked/],
    ['com.example.self-revoked', 'revoked_key', /revoked/],
    ['com.example.future', 'engine_range', /needs engine >=99\.0\.0/],
    ['com.example.unsigned', 'unsigned', /signature\.json/],
  ])('refuses %s with reason %s', async (id, reason, detail) => {
    const refusal = refusalOf(await adminView(app), id);
    expect(refusal, `${id} should be refused`).toBeDefined();
    expect(refusal!.reason).toBe(reason);
    expect(refusal!.detail).toMatch(detail);
    expect(app.app.services.plugins.catalogue.manifest(id)).toBeUndefined();
  });

  it('picks the newest version compatible with the running engine', async () => {
    const view = await adminView(app);
    expect(view.loaded.find((plugin) => plugin.id === 'com.example.fallback')?.version).toBe('1.0.0');
  });

  it('refuses a rollback to an older version once a newer one was loaded', async () => {
    expect((await adminView(app)).loaded.find((plugin) => plugin.id === 'com.example.rollback')?.version).toBe('1.1.0');
    await unpublish(registry, 'com.example.rollback', '1.1.0');
    const view = await adminView(app, 'POST');
    expect(view.loaded.find((plugin) => plugin.id === 'com.example.rollback')).toBeUndefined();
    expect(refusalOf(view, 'com.example.rollback')).toMatchObject({ version: '1.0.0', reason: 'rollback' });
    expect(refusalOf(view, 'com.example.rollback')?.detail).toMatch(/older than 1\.1\.0/);
  });

  it('loads unsigned plugins only with the development flag, marked as unsigned', async () => {
    const dev = await startTestApp({ ...registry.env, OPL_PLUGIN_ALLOW_UNSIGNED: 'true' });
    try {
      const view = await adminView(dev);
      expect(view.loaded.find((plugin) => plugin.id === 'com.example.unsigned')).toMatchObject({ signed: false });
      // The flag never excuses a bad signature.
      expect(refusalOf(view, 'com.example.tampered')?.reason).toBe('modified_file');
    } finally {
      await dev.close();
    }
  });

  it('keeps loaded plugins when the registry becomes unreadable, and reports the error', async () => {
    const indexPath = join(registry.dir, 'index.json');
    const index = await readFile(indexPath, 'utf8');
    await appendFile(indexPath, '{ not json');
    try {
      const response = await app.app.http!.inject({ method: 'POST', url: '/api/admin/plugins/reload' });
      const body = response.json<{ registry: { error: string | null }; loaded: Array<{ id: string }> }>();
      expect(body.registry.error).toMatch(/could not be read/);
      expect(body.loaded.map((plugin) => plugin.id)).toContain('com.example.good');
    } finally {
      await writeFile(indexPath, index);
    }
  });

  it('shows the capability matrix of loaded providers at /providers', async () => {
    const response = await app.app.http!.inject({ method: 'GET', url: '/providers' });
    expect(response.statusCode).toBe(200);
    const { providers } = response.json<{ providers: Array<{ plugin: { id: string }; can_source: boolean; can_target: boolean; can_mirror: boolean; mirror_unavailable_reason: string | null }> }>();
    const good = providers.find((provider) => provider.plugin.id === 'com.example.good');
    expect(good).toMatchObject({ can_source: true, can_target: false, can_mirror: false });
    expect(good?.mirror_unavailable_reason).toMatch(/cannot remove tracks/);
    expect(providers.some((provider) => provider.plugin.id === 'com.example.tampered')).toBe(false);
  });

  it('reports the plugin host in readiness', async () => {
    const response = await app.app.http!.inject({ method: 'GET', url: '/readyz' });
    expect(response.json<{ checks: Record<string, { status: string }> }>().checks.plugin_host?.status).toBe('up');
  });
});
