import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { createPublisher, createTestRegistry, providerCode, providerManifestSource, publishTestPlugin, type TestRegistry } from '../support/plugin-registry.ts';

describe('quarantine: a plugin that keeps breaking its limits is unloaded until an admin releases it', () => {
  let registry: TestRegistry;
  let app: TestApp;

  beforeAll(async () => {
    const publisher = createPublisher('loop-publisher');
    registry = await createTestRegistry([publisher]);
    await publishTestPlugin(registry, {
      manifestSource: providerManifestSource('com.example.spinner', '1.0.0', publisher.keyId),
      // Spins forever when asked for playlists; answers connection tests normally.
      code: providerCode(`async testConnection() { return { ok: true }; }, listPlaylists() { for (;;) {} }`),
      publisher,
    });
    app = await startTestApp({ ...registry.env, OPL_PLUGIN_CALL_TIMEOUT_MS: '300', OPL_PLUGIN_QUARANTINE_STRIKES: '2' });
  });

  afterAll(async () => {
    await app?.close();
    await registry?.cleanup();
  });

  const view = async () =>
    (await app.app.http!.inject({ method: 'GET', url: '/api/admin/plugins' })).json<{ loaded: Array<{ id: string }>; refused: Array<{ id: string; reason: string; detail: string }> }>();

  it('quarantines after the configured strikes, persists it, and keeps answering HTTP', async () => {
    const host = app.app.services.plugins.host;
    await expect(host.call('com.example.spinner', 'listPlaylists', {})).rejects.toThrow();
    expect((await app.app.http!.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    await expect(host.call('com.example.spinner', 'listPlaylists', {})).rejects.toThrow();

    const deadline = Date.now() + 10_000;
    let refusal: { reason: string; detail: string } | undefined;
    while (Date.now() < deadline) {
      refusal = (await view()).refused.find((entry) => entry.id === 'com.example.spinner');
      if (refusal) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(refusal?.reason).toBe('quarantined');
    await expect(host.call('com.example.spinner', 'testConnection', {})).rejects.toThrow();

    // A reload re-reads the registry but the quarantine (a database row) holds.
    const reloaded = (await app.app.http!.inject({ method: 'POST', url: '/api/admin/plugins/reload' })).json<{ refused: Array<{ id: string; reason: string }> }>();
    expect(reloaded.refused.find((entry) => entry.id === 'com.example.spinner')?.reason).toBe('quarantined');
  });

  it('loads the plugin again when an admin releases it', async () => {
    const response = await app.app.http!.inject({ method: 'POST', url: '/api/admin/plugins/com.example.spinner/release' });
    expect(response.statusCode).toBe(200);
    expect(response.json<{ loaded: Array<{ id: string }> }>().loaded.map((plugin) => plugin.id)).toContain('com.example.spinner');
    expect(await app.app.services.plugins.host.call('com.example.spinner', 'testConnection', {})).toMatchObject({ ok: true });
    const again = await app.app.http!.inject({ method: 'POST', url: '/api/admin/plugins/com.example.spinner/release' });
    expect(again.statusCode).toBe(404);
  });
});
