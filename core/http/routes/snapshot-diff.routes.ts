import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { SnapshotDiffs } from '../../services/snapshots/index.ts';
import { problemResponse } from '../errors/index.ts';
import { requireOwner } from '../owner/owner-gate.ts';

/**
 * Track-level diffs of snapshots (issue 30 item 7): `{id}` is the older side, `against` the newer
 * one — another snapshot of the owner, or `live` (the playlist as its provider has it now). Lists
 * are capped by `limit` per collection; the counts are always whole.
 */

export interface SnapshotDiffApi {
  diffs: Pick<SnapshotDiffs, 'between' | 'againstLive'>;
}

const trackSchema = z.object({ identity: z.string().describe('id:<provider id>, isrc:<ISRC> or text:<title>|<artist>'), id: z.string().nullable(), title: z.string(), artist: z.string(), album: z.string().nullable(), isrc: z.string().nullable() });
const sideSchema = z.object({ restore_id: z.string().nullable().describe('null: the live playlist'), item_count: z.number().int(), incomplete: z.boolean().describe('The collection was partial when it was taken') });
const diffSchema = z
  .object({
    from: z.object({ snapshot_id: z.uuid(), created_at: z.string() }),
    to: z.object({ snapshot_id: z.uuid().nullable().describe('null: the live playlist'), created_at: z.string().describe('For the live playlist: when it was read') }),
    collections: z.array(
      z.object({
        key: z.string().describe('<provider>:<collection id>: pairs the collections of both sides'),
        name: z.string(),
        kind: z.string(),
        status: z.enum(['changed', 'unchanged', 'added', 'removed', 'unreadable']),
        from: sideSchema.nullable(),
        to: sideSchema.nullable(),
        counts: z.object({ added: z.number().int(), removed: z.number().int(), moved: z.number().int(), unchanged: z.number().int() }),
        added: z.array(z.object({ position: z.number().int(), track: trackSchema })),
        removed: z.array(z.object({ position: z.number().int(), track: trackSchema })),
        moved: z.array(z.object({ from: z.number().int(), to: z.number().int(), track: trackSchema })),
        truncated: z.boolean().describe('A list holds only its first `limit` entries'),
      }),
    ),
  })
  .meta({ id: 'SnapshotDiff' });

const limit = z.coerce.number().int().min(1).max(5_000).default(500).describe('Most entries per list and collection');
const errors = {
  404: problemResponse('No such snapshot or collection for this owner'),
  409: problemResponse('A snapshot has no archive yet, or the account to read the live playlist from must be named (`account_id`)'),
  410: problemResponse('An archive file is missing (`reason: archive_missing`)'),
  422: problemResponse('An archive failed verification (`snapshot_verification_failed`), or the named account is of another provider'),
};

export const snapshotDiffRoutes: FastifyPluginAsyncZod<{ snapshots: SnapshotDiffApi; answer: <T>(work: () => Promise<T>) => Promise<T> }> = async (app, { snapshots, answer }) => {
  app.get(
    '/api/snapshots/:snapshot_id/diff',
    {
      schema: {
        tags: ['snapshots'],
        summary: 'What changed, track by track, from this snapshot to another one (`against`): per collection, songs added, removed and moved',
        params: z.object({ snapshot_id: z.uuid() }),
        querystring: z.object({ against: z.uuid().describe('The newer snapshot'), limit }),
        response: { 200: diffSchema, ...errors },
      },
    },
    async (request) => {
      const owner = requireOwner(request, 'compare snapshots');
      const { against, limit: max } = request.query;
      return answer(() => snapshots.diffs.between(owner.id, request.params.snapshot_id, against, { limit: max }));
    },
  );

  app.get(
    '/api/snapshots/:snapshot_id/collections/:restore_id/diff',
    {
      schema: {
        tags: ['snapshots'],
        summary: 'What changed in one collection of this snapshot: against another snapshot, or `live` (read from the provider now)',
        params: z.object({ snapshot_id: z.uuid(), restore_id: z.string().min(1).max(1_100).describe('The collection, as GET /api/snapshots/{id} lists it') }),
        querystring: z.object({
          against: z.union([z.literal('live'), z.uuid()]).describe('`live`, or the newer snapshot'),
          account_id: z.uuid().optional().describe('For `live`: the account to read (by default the one the snapshot was taken from, when it can be told)'),
          limit,
        }),
        response: { 200: diffSchema, ...errors },
      },
    },
    async (request) => {
      const owner = requireOwner(request, 'compare a snapshot');
      const { snapshot_id: snapshotId, restore_id: restoreId } = request.params;
      const { against, account_id: accountId, limit: max } = request.query;
      return answer(() =>
        against === 'live' ? snapshots.diffs.againstLive(owner.id, snapshotId, restoreId, { accountId: accountId ?? null, limit: max }) : snapshots.diffs.between(owner.id, snapshotId, against, { restoreId, limit: max }),
      );
    },
  );
};
