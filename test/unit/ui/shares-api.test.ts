import { describe, expect, it } from 'vitest';
import { describeImportFailure, parseImportPreview } from '../../../ui/src/api/imports.ts';
import { toProblem } from '../../../ui/src/api/problem.ts';
import { describeShareFailure, importShareRequest, parseCreatedShare, parseShareList, sharePath, sourceProviderLabel } from '../../../ui/src/api/shares.ts';

const share = {
  id: '0b8c3f7e-1111-4222-8333-444455556666',
  name: 'Road Trip',
  track_count: 3,
  source_provider: 'import',
  status: 'active',
  created_at: '2026-11-21T10:00:00.000Z',
  expires_at: null,
  revoked_at: null,
};

describe('shares API', () => {
  it('parses the created share with its link, and the list', () => {
    const created = parseCreatedShare({ ...share, token: 't'.repeat(43), url: 'https://x.test/share/ttt', json_url: 'https://x.test/api/public/shares/ttt' });
    expect(created).toMatchObject({ id: share.id, trackCount: 3, url: 'https://x.test/share/ttt', jsonUrl: 'https://x.test/api/public/shares/ttt' });
    expect(parseCreatedShare(share)).toBeUndefined();
    expect(parseShareList({ shares: [share, { ...share, status: 'revoked', revoked_at: '2026-11-21T11:00:00.000Z' }] })?.map((item) => item.status)).toEqual(['active', 'revoked']);
    expect(parseShareList({ shares: [{ ...share, status: 'weird' }] })).toBeUndefined();
  });

  it('builds the request and paths', () => {
    expect(importShareRequest('imp', '0', null)).toEqual({ source_provider: 'import', source_account_id: 'imp', playlist_id: '0' });
    expect(importShareRequest('imp', 'pl', 24)).toMatchObject({ expires_in_hours: 24 });
    expect(sharePath('a/b')).toBe('/api/shares/a%2Fb');
    expect(sourceProviderLabel('spotify')).toBe('Spotify');
    expect(sourceProviderLabel('import')).toBe('Import');
  });

  it('puts refusals into words', () => {
    expect(describeShareFailure(422, toProblem(422, {}), { max_tracks: 10000 }).nextSteps[0]).toMatch(/at most 10,000 tracks/);
    expect(describeShareFailure(410, toProblem(410, {}), {}).problem.title).toBe('The playlist is no longer there');
  });
});

describe('URL import refusals of provider and share links', () => {
  it('names the account to reconnect, the wait, and a gone share', () => {
    const reconnect = describeImportFailure('url', 409, toProblem(409, { title: 'x' }), { action: { type: 'reconnect_account', provider: 'spotify', display_name: 'Spotify', account_id: 'acc-1' } });
    expect(reconnect).toMatchObject({ reconnect: { provider: 'spotify', displayName: 'Spotify', accountId: 'acc-1' } });
    expect(reconnect.problem.title).toBe('Reconnect your Spotify account');
    expect(describeImportFailure('url', 429, toProblem(429, {}), { retry_after_s: 30 }).nextSteps[0]).toBe('Try again in 30 seconds.');
    expect(describeImportFailure('url', 404, toProblem(404, {}), {}).problem.title).toBe('This shared playlist is not available');
    const connect = describeImportFailure('url', 422, toProblem(422, {}), { action: { type: 'connect_source_account', provider: 'tidal', display_name: 'TIDAL' } });
    expect(connect.connect).toEqual({ provider: 'tidal', displayName: 'TIDAL' });
  });

  it('names each previewed playlist by the collection id the engine sent (its id, else its index)', () => {
    const preview = parseImportPreview({
      id: 'i',
      kind: 'url',
      name: null,
      format: 'spotify',
      state: 'previewed',
      created_at: 'c',
      expires_at: 'e',
      playlist_count: 2,
      track_count: 0,
      issues: [],
      playlists: [
        { id: 'pl-1', name: 'A', description: null, track_count: 0, tracks: [] },
        { name: 'B', description: null, track_count: 0, tracks: [] },
      ],
      collection_ids: ['pl-1', '1'],
    });
    expect(preview?.playlists.map((playlist) => playlist.key)).toEqual(['pl-1', '1']);
  });
});
