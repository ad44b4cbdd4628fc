import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstPartyPlugins } from '../support/first-party-plugins.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

/**
 * The generator in demo mode (`OPL_DEMO=1`, no model configured): the built-in demo model picks
 * songs of the demo catalogue from the words of the request, so a newcomer can try the whole flow
 * — generate, approve, confirm, migrate — with no model and no account of their own.
 */

let plugins: Awaited<ReturnType<typeof firstPartyPlugins>>;
let testApp: TestApp;
let baseUrl: string;

beforeAll(async () => {
  plugins = await firstPartyPlugins();
  testApp = await startTestApp({ ...plugins.env, OPL_DEMO: '1' }, { http: true, worker: true });
  const address = testApp.app.http!.server.address();
  baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}, 240_000);

afterAll(async () => {
  await testApp?.close();
  await plugins?.remove();
});

const json = async (path: string, init: RequestInit = {}) => {
  const response = await fetch(`${baseUrl}${path}`, { ...init, headers: { 'content-type': 'application/json', ...init.headers } });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

describe('the generator in demo mode', () => {
  it('says it uses the demo model, and runs generate → confirm → migrate on a demo TIDAL account', async () => {
    const config = await json('/api/generator/config');
    expect(config.body).toMatchObject({ available: true, demo: true, model: 'opl-demo-model' });
    expect(String(config.body['message'])).toMatch(/demo/i);

    const begin = await json('/api/auth/tidal/begin', { method: 'POST', body: '{}' });
    const authorize = await fetch(String(begin.body['redirect_url']), { redirect: 'manual' });
    const landed = await fetch(authorize.headers.get('location')!, { redirect: 'manual' });
    const accountId = landed.headers.get('location')!.split('connected=')[1]!;

    const made = await json('/api/generator/drafts', {
      method: 'POST',
      body: JSON.stringify({ target_provider: 'tidal', target_account_id: accountId, generation: { prompt: 'golden summer river lights', controls: { track_count: 5 } } }),
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const draft = made.body as { id: string; generation: { demo: boolean }; counts: { resolved: number; approved: number }; items: { status: string }[] };
    expect(draft.generation.demo).toBe(true);
    expect(draft.items.length).toBeGreaterThan(0);
    expect(draft.items.length).toBeLessThanOrEqual(5);
    expect(draft.counts.resolved).toBeGreaterThan(0);
    expect(draft.counts.approved).toBeGreaterThan(0);

    const confirmed = await json(`/api/generator/drafts/${draft.id}/confirm`, { method: 'POST', body: JSON.stringify({ acknowledge_warnings: true }) });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(201);
    const jobId = (confirmed.body['job'] as { id: string }).id;
    let job: Record<string, unknown> = {};
    for (let attempt = 0; attempt < 120; attempt++) {
      job = (await json(`/api/migrations/${jobId}`)).body;
      if (['completed', 'failed', 'cancelled'].includes(String(job['status']))) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(job).toMatchObject({ status: 'completed', outcome: 'completed', source_kind: 'generated' });
    expect((job['counts'] as { written: number }).written).toBe(draft.counts.approved);
  });
});
