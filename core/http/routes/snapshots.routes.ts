import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { profileBodySchema, retentionSchema, SnapshotError, snapshotScheduleSchema, type SnapshotService } from '../../services/snapshots/index.ts';
import { OpenEventStreams, streamRowEvents } from '../row-event-stream.ts';
import { AppError, problemResponse } from '../errors/index.ts';
import { requireOwner } from '../owner/owner-gate.ts';
import { contentDisposition } from './exports.routes.ts';
import { snapshotDiffRoutes, type SnapshotDiffApi } from './snapshot-diff.routes.ts';
import { snapshotRewindRoutes, type SnapshotRewindApi } from './snapshot-rewind.routes.ts';
import { toAppError } from './migrations.routes.ts';

/**
 * `/api/snapshots`: library snapshot profiles and archives (SPEC "Snapshots"). Everything is
 * private to its owner; an archive is listed only once it verified, and an upload is refused with
 * the verification's reason code before anything of it is kept.
 */

export type SnapshotsApi = Pick<
  SnapshotService,
  'createProfile' | 'updateProfile' | 'profiles' | 'profile' | 'deleteProfile' | 'createSnapshot' | 'snapshots' | 'snapshot' | 'archive' | 'verify' | 'deleteSnapshot' | 'upload' | 'openArchive' | 'limits' | 'eventsAfter' | 'follow' | 'asOf' | 'signingKey'
> &
  SnapshotDiffApi &
  SnapshotRewindApi;

const selectionSchema = z.object({ accounts: z.array(z.object({ account_id: z.string(), collections: z.union([z.literal('all'), z.array(z.string())]) })) });
const profileSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    library_id: z.uuid().describe('The library lineage shared by every snapshot of this profile'),
    selection: selectionSchema,
    schedule: snapshotScheduleSchema.nullable(),
    next_run_at: z.string().nullable().describe('When the next scheduled snapshot is taken; null without a schedule'),
    retention: retentionSchema.nullable(),
    automatic: z
      .object({ origin: z.string().describe('organizer or sync'), account_id: z.uuid() })
      .nullable()
      .describe('Null for your own profiles; an automatic profile is the engine’s, snapshotting the playlists an organizer job or a mirror run is about to change'),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'SnapshotProfile' });
const signingKeySchema = z.object({ algorithm: z.literal('ed25519'), key_id: z.string(), public_key: z.string().describe('base64, 32 bytes') }).meta({ id: 'SnapshotSigningKey' });
const failureSchema = z.object({ member: z.string(), source_id: z.string(), source_collection_id: z.string().nullable(), failure: z.object({ code: z.string(), message: z.string() }) });
const snapshotSchema = z
  .object({
    id: z.uuid(),
    profile_id: z.uuid().nullable(),
    library_id: z.uuid(),
    status: z.enum(['queued', 'running', 'completed', 'partial', 'failed']),
    origin: z.enum(['created', 'uploaded']),
    archive_bytes: z.number().int().nullable(),
    archive_sha256: z.string().nullable(),
    counts: z.record(z.string(), z.unknown()),
    progress: z.record(z.string(), z.unknown()).describe('collections_done, collections_total, items, current: while the job runs'),
    partial_failures: z.array(failureSchema),
    collections: z.array(z.object({ member: z.string(), restore_id: z.string().describe('Selects the collection in a restore (POST /api/migrations with source_provider "snapshot")'), kind: z.string(), name: z.string(), status: z.string(), item_count: z.number().int(), source_id: z.string(), source_collection_id: z.string().nullable() })),
    sources: z.array(z.object({ source_id: z.string(), provider: z.string(), label: z.string() })),
    signature: signingKeySchema.nullable().describe('The key whose ed25519 signature of the manifest verified; null for an unsigned archive'),
    verified_at: z.string().nullable(),
    verification_reason: z.string().nullable().describe('The reason code of the last failed verification, null when it verified'),
    error: z.string().nullable(),
    started_at: z.string().nullable(),
    completed_at: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'Snapshot' });

const profileParams = z.object({ profile_id: z.uuid() });
const snapshotParams = z.object({ snapshot_id: z.uuid() });

function snapshotProblem(error: unknown): unknown {
  if (error instanceof SnapshotError) {
    switch (error.code) {
      case 'not_found':
        return new AppError('not_found', error.message);
      case 'invalid_selection':
        return new AppError('invalid_selection', error.message);
      case 'too_large':
        return new AppError('payload_too_large', error.message);
      case 'no_snapshot_before':
        return new AppError('not_found', error.message, { extensions: { reason: 'no_snapshot_before' } });
      case 'confirmation_required':
      case 'rewind_unverified':
      case 'rewind_failed':
      case 'not_restorable':
        return new AppError('conflict', error.message, { extensions: { reason: error.code } });
      case 'account_required':
        return new AppError('conflict', error.message, { extensions: { reason: 'account_required' } });
      case 'archive_missing':
        return new AppError('gone', error.message, { extensions: { reason: 'archive_missing' } });
      case 'verification_failed':
        return new AppError('snapshot_verification_failed', error.message, { extensions: { reason: error.reason } });
      default:
        return new AppError('conflict', error.message);
    }
  }
  return toAppError(error);
}

async function answer<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw snapshotProblem(error);
  }
}

/** Events a stream sends per read: one snapshot row, so one. */
const SNAPSHOT_EVENT_BATCH = 1;

/** `admitSnapshot`: hosted mode's per-user snapshot storage limit, asked before a snapshot is taken or uploaded. */
export const snapshotRoutes: FastifyPluginAsyncZod<{ snapshots: SnapshotsApi; admitSnapshot?: (ownerId: string) => Promise<void> }> = async (app, { snapshots, admitSnapshot }) => {
  const openStreams = new OpenEventStreams();
  app.addHook('preClose', async () => openStreams.endAll());

  app.get('/api/snapshots/profiles', { schema: { tags: ['snapshots'], summary: "The owner's snapshot profiles", response: { 200: z.object({ profiles: z.array(profileSchema) }) } } }, async (request) => {
    const owner = requireOwner(request, 'list snapshot profiles');
    return { profiles: await answer(() => snapshots.profiles(owner.id)) };
  });

  app.post(
    '/api/snapshots/profiles',
    {
      schema: {
        tags: ['snapshots'],
        summary: 'Create a snapshot profile: connected accounts and the collections to keep (`all`, or ids; `liked` is liked tracks)',
        body: profileBodySchema,
        response: { 201: profileSchema, 422: problemResponse('An account is not connected for this owner (`invalid_selection`)') },
      },
    },
    async (request, reply) => {
      const owner = requireOwner(request, 'create a snapshot profile');
      return reply.code(201).send(await answer(() => snapshots.createProfile(owner.id, request.body)));
    },
  );

  app.get('/api/snapshots/profiles/:profile_id', { schema: { tags: ['snapshots'], summary: 'A snapshot profile', params: profileParams, response: { 200: profileSchema, 404: problemResponse('No such profile') } } }, async (request) => {
    const owner = requireOwner(request, 'read a snapshot profile');
    return answer(() => snapshots.profile(owner.id, request.params.profile_id));
  });

  app.put(
    '/api/snapshots/profiles/:profile_id',
    { schema: { tags: ['snapshots'], summary: 'Replace a profile’s name and selection (its library lineage stays)', params: profileParams, body: profileBodySchema, response: { 200: profileSchema, 404: problemResponse('No such profile'), 422: problemResponse('An account is not connected') } } },
    async (request) => {
      const owner = requireOwner(request, 'change a snapshot profile');
      return answer(() => snapshots.updateProfile(owner.id, request.params.profile_id, request.body));
    },
  );

  app.delete('/api/snapshots/profiles/:profile_id', { schema: { tags: ['snapshots'], summary: 'Delete a profile (its snapshots stay)', params: profileParams, response: { 204: z.null(), 404: problemResponse('No such profile') } } }, async (request, reply) => {
    const owner = requireOwner(request, 'delete a snapshot profile');
    await answer(() => snapshots.deleteProfile(owner.id, request.params.profile_id));
    return reply.code(204).send(null);
  });

  app.post(
    '/api/snapshots',
    { schema: { tags: ['snapshots'], summary: 'Take a snapshot of a profile now (a background job; follow it with GET /api/snapshots/{id}/events)', body: z.object({ profile_id: z.uuid() }).strict(), response: { 202: snapshotSchema, 404: problemResponse('No such profile') } } },
    async (request, reply) => {
      const owner = requireOwner(request, 'take a snapshot');
      await admitSnapshot?.(owner.id);
      return reply.code(202).send(await answer(() => snapshots.createSnapshot(owner.id, request.body.profile_id)));
    },
  );

  app.get(
    '/api/snapshots',
    {
      schema: {
        tags: ['snapshots'],
        summary: "The owner's snapshots, newest first, and the largest archive an upload may be",
        response: { 200: z.object({ snapshots: z.array(snapshotSchema), max_upload_bytes: z.number().int().describe('OPL_SNAPSHOT_MAX_ARCHIVE_BYTES') }) },
      },
    },
    async (request) => {
      const owner = requireOwner(request, 'list snapshots');
      return { snapshots: await answer(() => snapshots.snapshots(owner.id)), max_upload_bytes: snapshots.limits.archiveBytes };
    },
  );

  app.get(
    '/api/snapshots/signing-key',
    {
      schema: {
        tags: ['snapshots'],
        summary: "The public half of this instance's snapshot signing key: give it to another instance or to `opl snapshot verify --public-key` to check where an archive comes from",
        response: { 200: z.object({ signing: z.boolean().describe('Whether new snapshots are signed (OPL_SNAPSHOT_SIGNING)'), key: signingKeySchema.nullable() }) },
      },
    },
    async (request) => {
      requireOwner(request, 'read the snapshot signing key');
      const key = await answer(() => snapshots.signingKey());
      return { signing: key !== null, key };
    },
  );

  app.get(
    '/api/snapshots/as-of',
    {
      schema: {
        tags: ['snapshots'],
        summary: 'A playlist as it was at a time: the newest verified snapshot taken at or before `at` that holds it, and its restore id',
        description: 'Restore it with POST /api/migrations (`source_provider: "snapshot"`, `selection.playlist_ids: [restore_id]`); to the same account, the restore writes back into the playlist what it lacks.',
        querystring: z.object({ account_id: z.uuid(), playlist_id: z.string().min(1).max(500), at: z.iso.datetime({ offset: true }).describe('ISO 8601 time') }),
        response: {
          200: z.object({ snapshot: snapshotSchema, restore_id: z.string(), item_count: z.number().int() }),
          404: problemResponse('No such account, or no verified snapshot at or before that time holds the playlist (`reason: no_snapshot_before`)'),
        },
      },
    },
    async (request) => {
      const owner = requireOwner(request, 'find a playlist as it was');
      const { account_id: accountId, playlist_id: playlistId, at } = request.query;
      return answer(() => snapshots.asOf(owner.id, accountId, playlistId, new Date(at)));
    },
  );

  app.get('/api/snapshots/:snapshot_id', { schema: { tags: ['snapshots'], summary: 'A snapshot: status, progress, counts, partial failures, verification', params: snapshotParams, response: { 200: snapshotSchema, 404: problemResponse('No such snapshot') } } }, async (request) => {
    const owner = requireOwner(request, 'read a snapshot');
    return answer(() => snapshots.snapshot(owner.id, request.params.snapshot_id));
  });

  app.get(
    '/api/snapshots/:snapshot_id/events',
    {
      schema: {
        tags: ['snapshots'],
        summary: 'Live progress of a snapshot as server-sent events (`snapshot` events); resume with Last-Event-ID',
        description:
          'Each `snapshot` event is the snapshot as it is now (the body of GET /api/snapshots/{id}), sent whenever its row changes: queued, running with `progress` (collections done and total, items, the collection being read), then completed, partial or failed. `id` is the change number: a client reconnecting with `Last-Event-ID: N` (or `?after=N`) receives the snapshot again if it changed after N.',
        params: snapshotParams,
        querystring: z.object({ after: z.coerce.number().int().min(0).optional() }),
        headers: z.looseObject({ 'last-event-id': z.string().regex(/^\d{1,18}$/).optional() }),
        response: { 200: z.string().describe('text/event-stream'), 404: problemResponse('No such snapshot for this owner') },
      },
    },
    async (request, reply) => {
      const owner = requireOwner(request, 'follow a snapshot');
      const snapshotId = request.params.snapshot_id;
      await answer(() => snapshots.snapshot(owner.id, snapshotId));
      const after = Number(request.headers['last-event-id'] ?? request.query.after ?? 0);
      await streamRowEvents(
        request,
        reply,
        { eventsAfter: (last) => snapshots.eventsAfter(owner.id, snapshotId, last), subscribe: (wake) => snapshots.follow(snapshotId, wake), batchSize: SNAPSHOT_EVENT_BATCH },
        after,
        openStreams,
      );
    },
  );

  app.post(
    '/api/snapshots/:snapshot_id/verify',
    { schema: { tags: ['snapshots'], summary: 'Verify the stored archive again (the result is in `verification_reason`)', params: snapshotParams, response: { 200: snapshotSchema, 404: problemResponse('No such snapshot'), 409: problemResponse('The snapshot has no archive yet') } } },
    async (request) => {
      const owner = requireOwner(request, 'verify a snapshot');
      return answer(() => snapshots.verify(owner.id, request.params.snapshot_id));
    },
  );

  app.delete(
    '/api/snapshots/:snapshot_id',
    { schema: { tags: ['snapshots'], summary: 'Delete a snapshot and its archive', params: snapshotParams, response: { 204: z.null(), 404: problemResponse('No such snapshot'), 409: problemResponse('The snapshot is still being taken') } } },
    async (request, reply) => {
      const owner = requireOwner(request, 'delete a snapshot');
      await answer(() => snapshots.deleteSnapshot(owner.id, request.params.snapshot_id));
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/snapshots/:snapshot_id/archive',
    {
      schema: {
        tags: ['snapshots'],
        summary: 'Download the snapshot archive (ZIP64, application/zip)',
        params: snapshotParams,
        response: { 200: z.any().describe('The archive'), 404: problemResponse('No such snapshot'), 409: problemResponse('The snapshot has no archive'), 410: problemResponse('The archive file is missing from the snapshot directory (`reason: archive_missing`)') },
      },
    },
    async (request, reply) => {
      const owner = requireOwner(request, 'download a snapshot');
      const archive = await answer(() => snapshots.archive(owner.id, request.params.snapshot_id));
      return reply
        .header('content-type', 'application/zip')
        .header('content-length', String(archive.bytes))
        .header('content-disposition', contentDisposition(archive.fileName, archive.fileName))
        .header('cache-control', 'no-store')
        .send(snapshots.openArchive(archive.path));
    },
  );

  await app.register(snapshotDiffRoutes, { snapshots, answer });
  await app.register(snapshotRewindRoutes, { snapshots, answer, snapshotSchema });

  await app.register(async (raw) => {
    // The archive stays a stream: no parser buffers it, whatever its Content-Type says.
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', (_request, payload, done) => {
      done(null, payload);
    });
    raw.withTypeProvider<ZodTypeProvider>().post(
      '/api/snapshots/upload',
      {
        bodyLimit: snapshots.limits.archiveBytes + 1,
        schema: {
          tags: ['snapshots'],
          summary: 'Upload a snapshot archive made elsewhere (the raw ZIP is the body); it is verified before it is kept',
          response: {
            201: snapshotSchema,
            409: problemResponse('This snapshot is already stored'),
            413: problemResponse('The archive exceeds OPL_SNAPSHOT_MAX_ARCHIVE_BYTES'),
            422: problemResponse('The archive failed verification (`snapshot_verification_failed`, with its `reason` code)'),
          },
        },
      },
      async (request, reply) => {
        const owner = requireOwner(request, 'upload a snapshot');
        await admitSnapshot?.(owner.id);
        const body = request.body instanceof Readable ? request.body : Readable.from([]);
        return reply.code(201).send(await answer(() => snapshots.upload(owner.id, body)));
      },
    );
  });
};
