import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ImportRecordError } from '../../services/imports/index.ts';
import { MigrationError } from '../../services/migrations/index.ts';
import { MAX_IMPORT_DEPTH, OPEN_PLAYLIST_SOURCE, OpenPlaylistError, type OpenPlaylistsService } from '../../services/open-playlists/index.ts';
import { AppError, problemResponse } from '../errors/index.ts';
import { requireOwner } from '../owner/owner-gate.ts';
import { migrationWarningsResponse } from './migrations.routes.ts';
import { canonicalProviderKey, fromWireDocument, toWirePlaylist, wirePlaylistSchema } from './open-playlist-wire.ts';
import { providerProblem } from './provider-problems.ts';

/**
 * The Open Playlist interchange API (the public `open-playlist.yaml` bodies): the owner's
 * playlists and single playlists in the universal model, imports into an import record, and
 * exports to a target provider as a migration job. Same owner gate and problem bodies as `/api`.
 */

export type OpenPlaylistsApi = Pick<OpenPlaylistsService, 'listOwned' | 'get' | 'import' | 'exportToTarget' | 'resolve'>;

/**
 * The import body is parsed whole in memory (it is JSON, not a spooled upload), so it is held to
 * OPL_IMPORT_MAX_BYTES and never more than this; larger files go through /api/imports/preview.
 */
export const MAX_IMPORT_JSON_BYTES = 64 * 1024 * 1024;

const REF_SCHEME =
  '`me` (or the owner\'s own id) lists the owner\'s playlists: the owner is always resolved on the server, never taken from the path, and any other user id is 404. ' +
  '`<provider>:<account id>:<playlist id>` is a playlist of a connected account (`liked` = liked songs; the playlist id is everything after the second colon); ' +
  '`import:<import id>:<index>` is the index-th (0-based) playlist of an import record. Owner ids never contain a colon, so no value has two readings. ' +
  'Anything else is a 404 whose `detail` names the part that is wrong (e.g. an account id that is not a UUID); so is a reference whose provider is not its account\'s provider (it names no playlist).';

const openPlaylistSchema = wirePlaylistSchema.meta({
  id: 'OpenPlaylist',
  description:
    "A Playlist of open-playlist.yaml with its tracks in order: the universal model of the bundle v1, with the yaml's `kind` words (`standard`, `liked_tracks`) and whole-second `duration_s`; `id` is the interchange reference that reads it again",
});

const refreshQuery = z
  .enum(['true', 'false', '1', '0'])
  .optional()
  .transform((value) => value === 'true' || value === '1');

const importBody = z
  .object({
    source_provider: z
      .string()
      .trim()
      .min(1)
      .max(40)
      .describe(
        `\`${OPEN_PLAYLIST_SOURCE}\`: provider_data is Open Playlist JSON; a provider key (e.g. \`spotify\`; the yaml's \`apple_music\` and \`youtube_music\` name \`applemusic\` and \`ytmusic\`): provider_data names a connected account's playlist`,
      ),
    provider_data: z
      .record(z.string(), z.unknown())
      .describe(
        `For ${OPEN_PLAYLIST_SOURCE}: an Open Playlist bundle v1 (\`schema_version\` 1; other versions are refused with 422 unsupported_schema_version) or one universal Playlist (\`kind\` in the model's words or the yaml's: \`standard\`, \`liked_tracks\`); at most ${MAX_IMPORT_DEPTH} levels deep. For a provider: {"account_id": <connected account id>, "playlist_id": <its playlist id, or liked>}`,
      ),
  })
  .strict()
  .meta({ id: 'OpenPlaylistImportRequest' });

const exportBody = z
  .object({
    playlist_id: z.string().min(1).max(600).describe('An interchange reference: <provider>:<account id>:<playlist id> or import:<import id>:<index>'),
    target_provider: z
      .string()
      .trim()
      .min(1)
      .max(40)
      .describe(
        "The provider key to push the playlist to: a loaded provider plugin that can receive it (GET /providers, `can_target`; the yaml's `apple_music` and `youtube_music` name `applemusic` and `ytmusic`); `import` and `open_playlist` are never targets",
      ),
    target_account_id: z.uuid().optional().describe('Which connected account of the target provider; needed only when several are connected'),
    acknowledge_warnings: z.boolean().optional().describe('Start despite the preflight warnings a previous 409 listed'),
  })
  .strict()
  .meta({ id: 'OpenPlaylistExportRequest' });

const exportResponse = z
  .object({
    provider: z.string(),
    target_account_id: z.string(),
    provider_playlist_url: z.string().nullable().describe('Unknown until the migration has created the playlist: follow the job'),
    status: z.literal('queued'),
    tracks_matched: z.number().int().describe('0 when queued; the job reports the counts as it runs'),
    tracks_unmatched: z.number().int(),
    job_id: z.string(),
    job_url: z.string().describe('GET it for progress, counts and the target playlist'),
  })
  .meta({ id: 'OpenPlaylistExportResponse' });

function toAppError(error: unknown): unknown {
  if (error instanceof OpenPlaylistError) {
    const extensions = { reason: error.reason, ...error.extensions };
    switch (error.reason) {
      case 'not_found':
        // A plain "no such thing" carries no extension; a reference to nothing says why (`reason`).
        return new AppError('not_found', error.message, Object.keys(error.extensions).length > 0 ? { extensions: error.extensions } : {});
      case 'invalid_document':
      case 'too_deep':
      case 'unknown_provider':
        return new AppError('validation_failed', error.message, { extensions });
      case 'unsupported_schema_version':
        return new AppError('unsupported_schema_version', error.message, { extensions });
      case 'target_cannot_receive':
        return new AppError('unsupported_target_type', error.message, { extensions });
      default:
        return new AppError('unprocessable_content', error.message, { extensions });
    }
  }
  if (error instanceof ImportRecordError) {
    if (error.reason === 'expired') return new AppError('gone', error.message);
    if (error.reason === 'queued') return new AppError('conflict', error.message);
    return new AppError('not_found', error.message);
  }
  if (error instanceof MigrationError) return new AppError(error.code, error.message, { extensions: error.extensions });
  return providerProblem(error);
}

async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw toAppError(error);
  }
}

/** The owner gate of every interchange route (see README: the same gate as `/api`). */
const gateErrors = {
  401: problemResponse('`session_required`: the instance has an owner session gate (OPL_PUBLIC_BASE_URL) and the request carries no valid session'),
  403: problemResponse('`authentication_not_configured`: a hosted instance without user authentication; for POST also `cross_origin_request`'),
};

const providerReadErrors = {
  429: problemResponse('`provider_rate_limited`: the provider asks to slow down (Retry-After)'),
  502: problemResponse('`provider_unavailable`: the provider failed or could not be reached'),
};

const readErrors = {
  400: problemResponse('Invalid query (`refresh`, `provider`); `provider` naming no loaded provider: `reason` unknown_provider, `providers` lists the loaded ones'),
  ...gateErrors,
  404: problemResponse(
    'Not this owner, not a well-formed reference, or no such account, import or playlist; `detail` says which part. A reference whose provider is not its account\'s provider names nothing: 404 with `reason` account_provider_mismatch and `account_provider`',
  ),
  409: problemResponse('`provider_auth_expired`: the account needs reconnecting (`action.type` = reconnect_account)'),
  410: problemResponse('`gone`: the import expired'),
  422: problemResponse('The provider refused the read: `provider_unsupported`, or `unprocessable_content` (invalid input for the provider, or a playlist over 20,000 entries)'),
  ...providerReadErrors,
};

export const openPlaylistRoutes: FastifyPluginAsyncZod<{ openPlaylists: OpenPlaylistsApi; importBodyLimit: number }> = async (app, { openPlaylists, importBodyLimit }) => {
  app.get(
    '/open-playlists/:id',
    {
      schema: {
        tags: ['open-playlists'],
        summary: "The owner's playlists (`me`), or one playlist with its tracks, in the universal Open Playlist model",
        description:
          `One path for both shapes of the Open Playlist API (\`/open-playlists/{userId}\` and \`/open-playlists/{playlistId}\`). ${REF_SCHEME} ` +
          "The list holds every connected account's playlists (`track_count`, no tracks; accounts that need reconnecting are left out); `provider` narrows it to one provider. Provider reads are cached like `/api/playlists` until `refresh=true`.",
        params: z.object({ id: z.string().min(1).max(600).describe(REF_SCHEME) }),
        querystring: z.object({ refresh: refreshQuery, provider: z.string().trim().min(1).max(40).optional().describe('Owner list only: one provider (`apple_music` and `youtube_music` name `applemusic` and `ytmusic`)') }),
        response: {
          200: z.union([z.array(openPlaylistSchema), openPlaylistSchema]).describe('An array of playlists for `me`; one playlist for a reference'),
          ...readErrors,
        },
      },
    },
    async (request) => {
      const owner = requireOwner(request, 'read playlists');
      return guarded(async () => {
        const ref = openPlaylists.resolve(owner.id, request.params.id);
        if (ref.kind === 'owner') {
          const provider = request.query.provider === undefined ? undefined : canonicalProviderKey(request.query.provider);
          return (await openPlaylists.listOwned(owner.id, { provider, refresh: request.query.refresh })).map(toWirePlaylist);
        }
        return toWirePlaylist(await openPlaylists.get(owner.id, request.params.id, request.query.refresh));
      });
    },
  );

  app.post(
    '/open-playlists/import',
    {
      bodyLimit: Math.min(importBodyLimit, MAX_IMPORT_JSON_BYTES),
      schema: {
        tags: ['open-playlists'],
        summary: 'Import a playlist into the universal model as an import record',
        description:
          `\`source_provider: "${OPEN_PLAYLIST_SOURCE}"\` stores posted Open Playlist JSON (a bundle v1 with one or more playlists, or one Playlist); a provider key stores a snapshot of a connected account's playlist. ` +
          'The answer is the first imported playlist; its id (`import:<import id>:0`) reads it again and is what POST /open-playlists/export takes. Headers: Location, `X-Open-Playlist-Import-Id` (also usable with /api/imports/{id}, /api/exports and /api/migrations), `X-Open-Playlist-Playlist-Count`. ' +
          `Limits: OPL_IMPORT_MAX_BYTES but at most ${MAX_IMPORT_JSON_BYTES / 1048576} MiB of JSON (413; larger files: /api/imports/preview), OPL_IMPORT_MAX_PLAYLISTS and OPL_IMPORT_MAX_TRACKS (422); the record expires after OPL_IMPORT_TTL_HOURS.`,
        body: importBody,
        response: {
          201: openPlaylistSchema,
          400: problemResponse('Invalid body, invalid Open Playlist document (`issues`), or JSON nested too deeply'),
          ...gateErrors,
          404: problemResponse('No such connected account or playlist'),
          409: problemResponse('`provider_auth_expired`: the account needs reconnecting'),
          413: problemResponse('The body is larger than OPL_IMPORT_MAX_BYTES (or 64 MiB)'),
          415: problemResponse('The body is not JSON (`unsupported_media_type`)'),
          422: problemResponse(
            'unsupported_schema_version; `reason`: too_many_playlists, too_many_tracks, no_playlists, or account_provider_mismatch (`provider_data.account_id` is not a `source_provider` account); or the provider refused the read (`provider_unsupported`, `unprocessable_content`)',
          ),
          ...providerReadErrors,
        },
      },
    },
    async (request, reply) => {
      const owner = requireOwner(request, 'import playlists');
      const { source_provider: sourceProvider, provider_data: data } = request.body;
      const outcome = await guarded(() =>
        openPlaylists.import(
          owner.id,
          sourceProvider === OPEN_PLAYLIST_SOURCE ? { source_provider: sourceProvider, provider_data: fromWireDocument(data) } : { source_provider: canonicalProviderKey(sourceProvider), provider_data: data },
        ),
      );
      return reply
        .status(201)
        .header('location', `/open-playlists/${encodeURIComponent(outcome.playlist.id!)}`)
        .header('x-open-playlist-import-id', outcome.importId)
        .header('x-open-playlist-playlist-count', String(outcome.playlistCount))
        .send(toWirePlaylist(outcome.playlist));
    },
  );

  app.post(
    '/open-playlists/export',
    {
      schema: {
        tags: ['open-playlists'],
        summary: 'Push one playlist to a target provider (queues a migration job)',
        description:
          'Creates a migration of the referenced playlist into a connected account of `target_provider` (the only one connected, or `target_account_id`). Answers 202 once the job is queued: the playlist URL and the matched/unmatched counts come with the job (`job_url`). ' +
          'The reference is checked first (404/410 whatever the target), then the target provider (422 when none of that name is loaded or it cannot receive the playlist), then its account. ' +
          'The migration preflight applies: exceeding the safe defaults answers 409 `migration_warnings` with `warnings`; resend with `acknowledge_warnings: true`. For files, use POST /open-playlists/export/file (the same as POST /api/exports).',
        body: exportBody,
        response: {
          202: exportResponse,
          400: problemResponse('Invalid body'),
          ...gateErrors,
          404: problemResponse(
            '`playlist_id` names nothing: not a well-formed reference (`detail` says which part), no such account, import or playlist, or a provider reference whose account is of another provider (`reason` account_provider_mismatch); or `target_account_id` is no connected account',
          ),
          409: migrationWarningsResponse(
            '`migration_warnings` with `summary` and `warnings` (MigrationWarning: string parameters) to acknowledge; `provider_auth_expired` (the source or target account needs reconnecting); or `conflict` (the import is already queued)',
          ),
          410: problemResponse('`gone`: the import expired'),
          413: problemResponse('The body is larger than 1 MiB'),
          415: problemResponse('The body is not JSON (`unsupported_media_type`)'),
          422: problemResponse(
            '`unprocessable_content` with `reason`: unknown_target_provider (no such provider is loaded, or `import`/`open_playlist`, which are never targets; `target_providers` lists those that can receive it), no_target_account (`action` connect_target_account), target_account_required (`target_account_ids`), account_provider_mismatch (`target_account_id` is not a `target_provider` account); `unsupported_target_type` (the target cannot receive this playlist or liked songs: `unsupported`); `invalid_selection` (e.g. source and target are the same account)',
          ),
          ...providerReadErrors,
        },
      },
    },
    async (request, reply) => {
      const owner = requireOwner(request, 'export playlists to a provider');
      const outcome = await guarded(() => openPlaylists.exportToTarget(owner.id, { ...request.body, target_provider: canonicalProviderKey(request.body.target_provider) }));
      return reply.status(202).send({ ...outcome, job_url: `/api/migrations/${outcome.job_id}` });
    },
  );
};

/** For building the server without a database (the OpenAPI generator): every call refuses. */
export function unavailableOpenPlaylists(): OpenPlaylistsApi {
  const refuse = async (): Promise<never> => {
    throw new Error('the interchange API is not wired in this server');
  };
  return {
    resolve: () => {
      throw new Error('the interchange API is not wired in this server');
    },
    listOwned: refuse,
    get: refuse,
    import: refuse,
    exportToTarget: refuse,
  };
}
