import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { PlaylistRewinds } from '../../services/snapshots/index.ts';
import { problemResponse } from '../errors/index.ts';
import { requireOwner } from '../owner/owner-gate.ts';

/**
 * "This playlist as it was at time T", written back into the same provider playlist (issue 30
 * item 7): a preview of the removals, moves and additions, then the rewind itself, which needs the
 * removals confirmed, takes an automatic snapshot first, writes through a ledger and verifies by
 * reading the playlist again.
 */

export interface SnapshotRewindApi {
  rewinds: Pick<PlaylistRewinds, 'preview' | 'rewind' | 'read'>;
}

const listed = z.object({ uri: z.string(), title: z.string(), artist: z.string() });
const previewSchema = (snapshotSchema: z.ZodType) =>
  z
    .object({
      snapshot: snapshotSchema,
      restore_id: z.string(),
      account_id: z.uuid(),
      playlist: z.object({ id: z.string(), name: z.string(), item_count: z.number().int() }),
      method: z.enum(['none', 'edit', 'replace']).describe('`none`: the playlist already is as it was; `edit`: removals, moves and additions; `replace`: one replacement of the whole list (the snapshot holds a song twice, or the playlist extra copies)'),
      counts: z.object({
        remove: z.number().int().describe('Entries of the live playlist the result drops: `confirm_removals` must be at least this'),
        move: z.number().int(),
        add: z.number().int(),
        result: z.number().int().describe('Entries after the rewind'),
        unrestorable: z.number().int().describe('Songs of the snapshot without a URI of this provider (local files)'),
      }),
      remove: z.array(listed.extend({ positions: z.array(z.number().int()) })),
      move: z.array(listed.extend({ from: z.number().int(), to: z.number().int() })),
      add: z.array(listed.extend({ position: z.number().int() })),
      unrestorable: z.array(z.object({ title: z.string(), artist: z.string() })),
      confirmation_required: z.boolean(),
    })
    .meta({ id: 'SnapshotRewindPreview' });

const target = {
  account_id: z.uuid().describe('The connected account whose playlist is rewound (the snapshot must hold it, taken from the same provider)'),
  playlist_id: z.string().min(1).max(500),
  at: z.iso.datetime({ offset: true }).optional().describe('Rewind to the newest verified snapshot taken at or before this time…'),
  snapshot_id: z.uuid().optional().describe('…or to this snapshot'),
};
const errors = {
  404: problemResponse('No such account, snapshot or playlist in it, or no verified snapshot at or before `at` holds it (`reason: no_snapshot_before`)'),
  409: problemResponse('`reason`: `confirmation_required` (confirm the removals), `not_restorable` (a partial collection, or local files a replacement would lose), `rewind_failed`, `rewind_unverified`; or a rewind of the playlist is running'),
  410: problemResponse('The archive file is missing (`reason: archive_missing`)'),
  422: problemResponse('The archive failed verification (`snapshot_verification_failed`), or neither `at` nor `snapshot_id` was given'),
};
const nullableText = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const exactlyOne = (value: { at?: string | undefined; snapshot_id?: string | undefined }) => (value.at === undefined) !== (value.snapshot_id === undefined);
const whenMessage = { message: 'Name exactly one of `at` and `snapshot_id`.' };

export const snapshotRewindRoutes: FastifyPluginAsyncZod<{ snapshots: SnapshotRewindApi; answer: <T>(work: () => Promise<T>) => Promise<T>; snapshotSchema: z.ZodType }> = async (app, { snapshots, answer, snapshotSchema }) => {
  const preview = previewSchema(snapshotSchema);
  const targetOf = (value: { account_id: string; playlist_id: string; at?: string | undefined; snapshot_id?: string | undefined }) => ({ accountId: value.account_id, playlistId: value.playlist_id, at: value.at ? new Date(value.at) : undefined, snapshotId: value.snapshot_id });

  app.get(
    '/api/snapshots/rewind/preview',
    {
      schema: {
        tags: ['snapshots'],
        summary: 'What rewinding a playlist to how it was at a time (or in a snapshot) would do now: the songs removed, moved and added',
        querystring: z.object(target).refine(exactlyOne, whenMessage),
        response: { 200: preview, ...errors },
      },
    },
    async (request) => {
      const owner = requireOwner(request, 'preview a playlist rewind');
      return answer(() => snapshots.rewinds.preview(owner.id, targetOf(request.query)));
    },
  );

  app.post(
    '/api/snapshots/rewind',
    {
      schema: {
        tags: ['snapshots'],
        summary: 'Rewind a playlist to how it was at a time (or in a snapshot), in place: the same provider playlist, by id, no matching',
        description:
          'The live playlist becomes the snapshot’s ordered list by removals, the fewest moves and additions (one replacement where the provider cannot move entries). An automatic snapshot of the playlist as it is now is taken first; every provider write is ledgered; the result is verified by reading the playlist again. A playlist that already is as it was is left alone (`status: unchanged`, nothing written).',
        body: z
          .object({ ...target, confirm_removals: z.number().int().min(0).max(1_000_000).default(0).describe('How many entries of the live playlist may go (the preview’s `counts.remove`)') })
          .refine(exactlyOne, whenMessage),
        response: {
          200: z
            .object({
              rewind_id: z.uuid().nullable().describe('null: nothing to do'),
              status: z.enum(['unchanged', 'completed']),
              preview,
              automatic_snapshot_id: z.uuid().nullable(),
              writes: z.object({ calls: z.number().int(), removed: z.number().int(), moved: z.number().int(), added: z.number().int(), replaced: z.boolean() }),
              verified: z.boolean(),
            })
            .meta({ id: 'SnapshotRewind' }),
          ...errors,
        },
      },
    },
    async (request) => {
      const owner = requireOwner(request, 'rewind a playlist');
      return answer(() => snapshots.rewinds.rewind(owner.id, targetOf(request.body), request.body.confirm_removals));
    },
  );

  app.get(
    '/api/snapshots/rewinds/:rewind_id',
    {
      schema: {
        tags: ['snapshots'],
        summary: 'A rewind and its ledger: one row per provider write, intended before the call and settled after it',
        params: z.object({ rewind_id: z.uuid() }),
        response: {
          200: z.object({
            id: z.uuid(),
            snapshot_id: z.uuid().nullable(),
            account_id: z.uuid(),
            playlist_id: z.string(),
            status: z.enum(['running', 'completed', 'failed']),
            stats: z.record(z.string(), z.unknown()),
            error: z.string().nullable(),
            steps: z.array(z.object({ seq: z.number().int(), kind: z.string(), payload: z.record(z.string(), z.unknown()), status: z.string(), error: z.string().nullable() })),
          }),
          404: problemResponse('No such rewind for this owner'),
        },
      },
    },
    async (request) => {
      const owner = requireOwner(request, 'read a playlist rewind');
      const row = await answer(() => snapshots.rewinds.read(owner.id, request.params.rewind_id));
      return { id: String(row['id']), snapshot_id: nullableText(row['snapshot_id']), account_id: String(row['account_id']), playlist_id: String(row['playlist_id']), status: row['status'] as 'running', stats: row['stats'] as Record<string, unknown>, error: nullableText(row['error']), steps: row['steps'] as never };
    },
  );
};
