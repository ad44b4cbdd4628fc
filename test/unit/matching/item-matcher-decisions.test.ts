import { describe, expect, it } from 'vitest';
import type { Resolution, ResolveRequest } from '../../../core/services/matching/index.ts';
import { matchTrack, type MatchContext } from '../../../core/services/migrations/item-matcher.ts';
import { track } from './track.ts';

/**
 * How the migration engine hands a track to the match service: a remembered review decision is
 * reused only after the target adapter confirmed its URI names a track (spec, jobs 5), the job's
 * stored strictness goes through the one mapping, and graph hits get the adapter's check.
 */
function context(decision: { action: string; chosen_target_uri: string; chosen_target_id: string } | null, entityOfUri: string, strictness = 'best_effort') {
  const requests: ResolveRequest[] = [];
  const resolution: Resolution = {
    decision: 'accept', chosen: { id: 't-1', uri: 'svc:track:t-1', track: null }, confidence: 0.95, reason: 'Matched.', breakdown: [], penalties: [], candidates: [], searches: 1, from: 'search',
  };
  const ctx: MatchContext = {
    ownerId: 'owner', sourceProvider: 'alpha', targetProvider: 'svc', targetPluginId: 'com.example.svc', targetAccountId: 'acct', strictness: strictness as MatchContext['strictness'],
    // The engine asks for every scope at once; the stored decision is the account's own.
    execute: async (statement) => (statement.text.includes('from review_decision') && decision ? [{ scope: 'account:acct', ...decision }] : []),
    matching: {
      resolve: async (request) => {
        requests.push(request);
        return resolution;
      },
    },
    target: {
      searchAlbums: async () => [],
      searchArtists: async () => [],
      validateUri: async (uri) => ({ valid: true, id: uri.split(':')[2] ?? null, entity: entityOfUri }),
    },
  };
  return { ctx, requests };
}

const source = track({ id: 's-1', title: 'Song', artist: 'Artist' }) as unknown as Record<string, unknown>;

describe('remembered review decisions and the match service, from the migration engine', () => {
  it('reuses a track decision whose URI the target says is a track, with no search', async () => {
    const { ctx, requests } = context({ action: 'approve', chosen_target_uri: 'svc:track:t-9', chosen_target_id: 't-9' }, 'track');
    expect(await matchTrack(ctx, source)).toMatchObject({ status: 'matched', targetId: 't-9', matchDetail: { from: 'review_decision' } });
    expect(requests).toHaveLength(0);
  });

  it('never turns an album decision into a track: it matches afresh', async () => {
    const { ctx, requests } = context({ action: 'approve', chosen_target_uri: 'svc:album:al-1', chosen_target_id: 'al-1' }, 'album');
    expect(await matchTrack(ctx, source)).toMatchObject({ status: 'matched', targetId: 't-1', matchDetail: { from: 'search' } });
    expect(requests).toHaveLength(1);
  });

  it('passes the stored strictness through the one mapping, and the adapter check for graph hits', async () => {
    const { ctx, requests } = context(null, 'track', 'lenient');
    await matchTrack(ctx, source);
    expect(requests[0]!.strictness).toBe('best_effort');
    expect(await requests[0]!.validate!('svc:track:t-5')).toEqual({ valid: true, id: 't-5', entity: 'track' });
    const bad = context(null, 'track', 'sloppy');
    await expect(matchTrack(bad.ctx, source)).rejects.toThrow(/Unknown match strictness "sloppy"/u);
  });
});
