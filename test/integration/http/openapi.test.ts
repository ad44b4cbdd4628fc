import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPENAPI_FILE } from '../../../core/cli/openapi.command.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

describe('/openapi.json', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('is exactly the checked-in copy (run `npm run openapi` after changing a route)', async () => {
    const served = (await t.app.http!.inject({ method: 'GET', url: '/openapi.json' })).json<Record<string, unknown>>();
    const checkedIn = JSON.parse(await readFile(OPENAPI_FILE, 'utf8')) as Record<string, unknown>;
    expect(served).toEqual(checkedIn);
  });

  it('describes every public route with its responses', async () => {
    const document = (await t.app.http!.inject({ method: 'GET', url: '/openapi.json' })).json<{
      openapi: string;
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    }>();
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths).sort()).toEqual([
      '/api/admin/plugins',
      '/api/admin/plugins/allow-list',
      '/api/admin/plugins/allow-list/{id}',
      '/api/admin/plugins/reload',
      '/api/admin/plugins/{pluginId}/release',
      '/api/auth/accounts',
      '/api/auth/accounts/{id}',
      '/api/auth/accounts/{id}/test',
      '/api/auth/oidc/callback',
      '/api/auth/oidc/login',
      '/api/auth/{provider}/begin',
      '/api/auth/{provider}/callback',
      '/api/auth/{provider}/complete',
      '/api/demo/playlists/change',
      '/api/exports',
      '/api/exports/formats',
      '/api/exports/migrations/{job_id}',
      '/api/generator/config',
      '/api/generator/drafts',
      '/api/generator/drafts/{draft_id}',
      '/api/generator/drafts/{draft_id}/cancel',
      '/api/generator/drafts/{draft_id}/confirm',
      '/api/generator/drafts/{draft_id}/events',
      '/api/generator/drafts/{draft_id}/items',
      '/api/generator/drafts/{draft_id}/items/{item_id}',
      '/api/generator/drafts/{draft_id}/items/{item_id}/replace',
      '/api/generator/drafts/{draft_id}/regenerate',
      '/api/generator/drafts/{draft_id}/reorder',
      '/api/generator/drafts/{draft_id}/search',
      '/api/imports',
      '/api/imports/preview',
      '/api/imports/text-preview',
      '/api/imports/url-preview',
      '/api/imports/{id}',
      '/api/library/accounts/{account_id}/refresh',
      '/api/library/albums',
      '/api/library/artists',
      '/api/library/diff',
      '/api/library/diff/resolve',
      '/api/library/groups/join',
      '/api/library/groups/split',
      '/api/library/overview',
      '/api/library/workspace',
      '/api/me',
      '/api/migrations',
      '/api/migrations/preflight',
      '/api/migrations/stats',
      '/api/migrations/{job_id}',
      '/api/migrations/{job_id}/cancel',
      '/api/migrations/{job_id}/events',
      '/api/migrations/{job_id}/items',
      '/api/migrations/{job_id}/items/review',
      '/api/migrations/{job_id}/items/{item_id}/review',
      '/api/migrations/{job_id}/items/{item_id}/search',
      '/api/migrations/{job_id}/report',
      '/api/migrations/{job_id}/resume',
      '/api/migrations/{job_id}/stats',
      '/api/organizer/duplicates',
      '/api/organizer/jobs',
      '/api/organizer/jobs/{job_id}',
      '/api/organizer/jobs/{job_id}/retry',
      '/api/organizer/jobs/{job_id}/undo',
      '/api/organizer/playlists',
      '/api/organizer/preflight',
      '/api/playlists',
      '/api/playlists/{playlist_id}',
      '/api/public/share-session',
      '/api/public/shares/{token}',
      '/api/public/shares/{token}/recipient',
      '/api/session',
      '/api/sessions',
      '/api/sessions/{session_id}',
      '/api/shares',
      '/api/shares/{share}',
      '/api/snapshots',
      '/api/snapshots/as-of',
      '/api/snapshots/profiles',
      '/api/snapshots/profiles/{profile_id}',
      '/api/snapshots/rewind',
      '/api/snapshots/rewind/preview',
      '/api/snapshots/rewinds/{rewind_id}',
      '/api/snapshots/signing-key',
      '/api/snapshots/upload',
      '/api/snapshots/{snapshot_id}',
      '/api/snapshots/{snapshot_id}/archive',
      '/api/snapshots/{snapshot_id}/collections/{restore_id}/diff',
      '/api/snapshots/{snapshot_id}/diff',
      '/api/snapshots/{snapshot_id}/events',
      '/api/snapshots/{snapshot_id}/verify',
      '/api/syncs',
      '/api/syncs/events',
      '/api/syncs/{rule_id}',
      '/api/syncs/{rule_id}/pause',
      '/api/syncs/{rule_id}/preview',
      '/api/syncs/{rule_id}/resume',
      '/api/syncs/{rule_id}/run',
      '/api/syncs/{rule_id}/runs',
      '/api/syncs/{rule_id}/runs/{run_id}',
      '/api/syncs/{rule_id}/runs/{run_id}/approve',
      '/healthz',
      '/open-playlists/export',
      '/open-playlists/export/file',
      '/open-playlists/import',
      '/open-playlists/{id}',
      '/providers',
      '/readyz',
      '/schemas/{*}',
    ]);
    expect(Object.keys(document.paths['/readyz']!['get']!.responses).sort()).toEqual(['200', '503']);
    expect(document.paths['/api/session']!['post']!.responses['401']).toMatchObject({
      content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
    });
  });
});
