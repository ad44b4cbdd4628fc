import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { EXPORT_FORMATS } from '@opl/plugin-sdk/schemas';
import { clip, EXPORT_CONTENT_TYPES, ExportError, IMPORT_SOURCE_PROVIDER, type ExportArtifact, type ExportService } from '../../services/exports/index.ts';
import { ImportRecordError, MAX_COLLECTION_ID_LENGTH } from '../../services/imports/index.ts';
import { MigrationError } from '../../services/migrations/index.ts';
import { AppError, problemResponse } from '../errors/index.ts';
import { requireOwner } from '../owner/owner-gate.ts';
import { canonicalProviderKey } from './open-playlist-wire.ts';
import { providerProblem } from './provider-problems.ts';

/** What the export routes use; `createApp` wires the real service. */
export type ExportsApi = Pick<ExportService, 'export' | 'exportMigration' | 'writableFormats' | 'maxPlaylists'>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const FORMATS = `Output format: ${EXPORT_FORMATS.join(', ')} (those a loaded format plugin writes)`;

const id = z.string().trim().min(1).max(MAX_COLLECTION_ID_LENGTH);

const exportBodySchema = z
  .object({
    source_provider: z.string().trim().min(1).max(40).describe('The account\'s provider key (e.g. `spotify`), or `import` for an import record'),
    source_account_id: z.string().trim().min(1).max(200).describe('The connected account id, or the import record id when `source_provider` is `import`'),
    format: z.string().min(1).max(50).describe(FORMATS),
    selection: z
      .object({
        playlist_ids: z
          .array(id)
          .max(100_000)
          .describe('Playlists in this order: provider playlist ids (`liked` = liked songs); for an import, the playlist\'s entry in `collection_ids` of `GET /api/imports/{id}` (its own id, else its 0-based index "0", "1", …; unique within the import)'),
        tracks: z
          .record(id, z.array(id).max(1_000_000))
          .optional()
          .describe('Only these tracks of a playlist (raises `partial_selection`), by track id, entry id (`source_item_id`) or `pos:<n>`; a playlist named only here is exported too'),
      })
      .strict()
      .optional()
      .describe('Absent: every playlist of the source, whole (at most OPL_EXPORT_MAX_PLAYLISTS)'),
  })
  .strict()
  .meta({ id: 'ExportRequest' });

const historyBodySchema = z.object({ format: z.string().min(1).max(50).describe(FORMATS) }).strict().meta({ id: 'HistoryExportRequest' });

const DESCRIPTION =
  'Formats: csv (text/csv), txt (text/plain), m3u8 (application/vnd.apple.mpegurl), xspf (application/xspf+xml), json (application/vnd.open-playlist+json). Several playlists always give application/zip holding one file per playlist (for json: `open-playlist-bundle.json`) and `manifest.json` (export manifest v1). Headers: Content-Disposition (ASCII `filename` and UTF-8 `filename*`), Content-Length, `X-Open-Playlist-Schema-Version: 1`, `X-Open-Playlist-Warning-Count`. The file is built one playlist at a time in a private temporary file, streamed in 64 KiB chunks and removed afterwards.';

/**
 * The 200 answer of both download routes, by content type: a file is not JSON, and a client
 * generated from the OpenAPI document must not parse it as such.
 */
/** The headers of every export download (sent by `sendArtifact`), as the OpenAPI document lists them. */
const FILE_HEADERS = {
  'Content-Disposition': { type: 'string', description: 'attachment; an ASCII-safe `filename` and the UTF-8 `filename*` (RFC 6266 / 8187)' },
  'Content-Length': { type: 'integer', minimum: 0, description: 'The whole file\'s size in bytes' },
  'X-Open-Playlist-Schema-Version': { type: 'string', enum: ['1'], description: 'The Open Playlist schema version of the file (and its manifest)' },
  'X-Open-Playlist-Warning-Count': { type: 'integer', minimum: 0, description: 'How many warnings the export produced (listed in full in a JSON bundle and in an archive\'s manifest.json)' },
  'X-Open-Playlist-Warning-Codes': { type: 'string', description: 'The distinct warning codes, comma-separated (empty when none): a CSV, TXT, M3U8 or XSPF file cannot carry its warnings' },
};

function fileResponse(description: string) {
  const file = z.string().meta({ format: 'binary' });
  const types = [...new Set(Object.values(EXPORT_CONTENT_TYPES).map((type) => type.split(';')[0]!))];
  return { description, content: Object.fromEntries(types.map((type) => [type, { schema: file }])), headers: FILE_HEADERS };
}

/** Refusals of the body itself, before any route code runs. */
const bodyRefusals = {
  413: problemResponse('`payload_too_large`: the body is larger than 1 MiB'),
  415: problemResponse('`unsupported_media_type`: the body is not JSON'),
};

const SERVER_UNAVAILABLE =
  '`reason` format_unavailable: the format is one of the five but its plugin is not loaded now (refused or quarantined: see the Plugins page; `writable_formats`), or its sandbox stopped while writing (`failure`); temporary_storage_full: the server\'s temporary space is full (`errno` ENOSPC or EDQUOT), the admin must free some; temporary_storage_failed: another error writing the server\'s temporary files (`errno`). Nothing was kept; worth a retry';

function deniedAny(failures: unknown): boolean {
  return Array.isArray(failures) && failures.some((failure) => (failure as { reason?: unknown }).reason === 'denied');
}

function toAppError(error: unknown): unknown {
  if (error instanceof ExportError) {
    const extensions = { reason: error.reason, ...error.extensions };
    switch (error.reason) {
      case 'playlist_not_found':
        return new AppError('not_found', error.message, { extensions });
      case 'playlist_access_denied':
        return new AppError('playlist_access_denied', error.message, { extensions });
      case 'all_playlists_failed':
        // 403 when the provider denied any of them, else 404: every one of them is missing.
        return new AppError(deniedAny(error.extensions['failures']) ? 'playlist_access_denied' : 'not_found', error.message, { extensions });
      case 'migration_not_finished':
        return new AppError('migration_state_conflict', error.message, { extensions });
      case 'detail_expired':
        return new AppError('migration_detail_expired', error.message, { extensions });
      case 'format_unavailable':
      case 'temporary_storage_full':
      case 'temporary_storage_failed':
        // The format's plugin is not loaded or its sandbox stopped, or the server's temporary space is
        // full or failing: the engine's trouble, not the request's, and worth a retry once it clears.
        // (Not 507: that WebDAV status says the server cannot store what the client asked it to
        // store; here the client stores nothing, the server lacks scratch space for a while.)
        return new AppError('service_unavailable', error.message, { extensions });
      default:
        return new AppError('unprocessable_content', error.message, { extensions });
    }
  }
  if (error instanceof ImportRecordError) {
    if (error.reason === 'expired') return new AppError('gone', error.message);
    return new AppError('not_found', error.message);
  }
  if (error instanceof MigrationError && error.code === 'not_found') return new AppError('not_found', error.message);
  // Connection and provider failures: a missing account (404), an expired connection (409, reconnect), a rate limit (429 + Retry-After).
  return providerProblem(error);
}

/** `attachment` with an ASCII `filename` and the RFC 5987 `filename*` (UTF-8, percent-encoded). */
export function contentDisposition(asciiName: string, unicodeName: string): string {
  const ascii = asciiName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(unicodeName).replace(/['()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * Builds the export while watching the client, then streams it. Completion, client cancellation
 * and errors all remove the temporary file.
 */
async function download(request: FastifyRequest, reply: FastifyReply, build: (signal: AbortSignal) => Promise<ExportArtifact>): Promise<FastifyReply> {
  const left = new AbortController();
  const onLeave = () => left.abort(new Error('the client closed the connection'));
  request.raw.socket?.once('close', onLeave);
  let artifact: ExportArtifact;
  try {
    artifact = await build(left.signal);
  } catch (error) {
    if (left.signal.aborted) throw new AppError('malformed_body', 'The client closed the connection before the export was ready; nothing was kept.');
    throw toAppError(error);
  } finally {
    request.raw.socket?.off('close', onLeave);
  }
  // (The request stream itself is destroyed once its body is read: the socket tells whether the client left.)
  const socket = request.raw.socket as typeof request.raw.socket | null;
  if (left.signal.aborted || socket === null || socket.destroyed || reply.raw.destroyed || reply.raw.closed) {
    // The client went away while the file was being built: nobody will read it.
    await artifact.dispose();
    return reply;
  }
  const stream = artifact.open();
  const cleanUp = () => {
    stream.destroy();
    void artifact.dispose();
  };
  reply.raw.once('close', cleanUp);
  stream.once('close', cleanUp);
  stream.once('error', cleanUp);
  return reply
    .status(200)
    .header('content-type', artifact.contentType)
    .header('content-disposition', contentDisposition(artifact.fileName, artifact.unicodeFileName))
    .header('content-length', String(artifact.bytes))
    .header('cache-control', 'no-store')
    .header('x-open-playlist-schema-version', '1')
    .header('x-open-playlist-warning-count', String(artifact.warnings.length))
    // The distinct codes too: a single CSV, TXT, M3U8 or XSPF file cannot carry its warnings, and the UI puts them into words.
    .header('x-open-playlist-warning-codes', [...new Set(artifact.warnings.map((warning) => warning.code))].join(','))
    .send(stream);
}

const formatsResponseSchema = z
  .object({
    formats: z
      .array(
        z.object({
          format: z.enum(EXPORT_FORMATS).describe('An export format of the spec'),
          available: z.boolean().describe('A loaded format plugin writes it now; false while its plugin is refused or quarantined (the Plugins page says why)'),
        }),
      )
      .describe('Every export format, in the spec\'s order'),
    max_playlists: z.number().int().describe('Most playlists one export may hold (OPL_EXPORT_MAX_PLAYLISTS)'),
  })
  .meta({ id: 'ExportFormats' });

export const exportRoutes: FastifyPluginAsyncZod<{ exports: ExportsApi }> = async (app, { exports }) => {
  app.get(
    '/api/exports/formats',
    {
      schema: {
        tags: ['exports'],
        summary: 'The export formats and whether this engine can write each one now, so a client offers only those',
        response: { 200: formatsResponseSchema },
      },
    },
    async (request) => {
      requireOwner(request, 'export playlists');
      const writable = new Set<string>(exports.writableFormats());
      return { formats: EXPORT_FORMATS.map((format) => ({ format, available: writable.has(format) })), max_playlists: exports.maxPlaylists };
    },
  );

  // The same download under the interchange API's path (open-playlist.yaml: exportPortablePlaylistFiles),
  // where the yaml's provider keys (apple_music, youtube_music) are taken too.
  for (const route of [
    { path: '/api/exports', tag: 'exports', note: '', providerKey: (key: string) => key },
    {
      path: '/open-playlists/export/file',
      tag: 'open-playlists',
      note: " The Open Playlist API's name for POST /api/exports: the same body and answers; `source_provider` may also be spelled as open-playlist.yaml does (`apple_music`, `youtube_music`).",
      providerKey: canonicalProviderKey,
    },
  ]) {
    app.post(
      route.path,
      {
        schema: {
          tags: [route.tag],
          summary: 'Download playlists of a connected account or an import record: one playlist ⇒ the file itself, several ⇒ a ZIP64 archive with manifest.json',
          description: `${DESCRIPTION}${route.note} Playlists are read from the provider one at a time. Warning codes: partial_selection, empty_playlist, unsupported_items, missing_source_uri (m3u8, xspf), playlist_read_failed (a playlist among several was missing or denied: an \`error\` manifest entry with an empty filename).`,
          body: exportBodySchema,
          response: {
            200: fileResponse('The file (its content type is the format\'s, see the description), or application/zip for several playlists'),
            400: problemResponse('Invalid body'),
            403: problemResponse('`playlist_access_denied`: the one requested playlist (or every one of several) is not readable by this account'),
            404: problemResponse('No such account or import for this owner; or the one requested playlist (or every one of several: `reason` all_playlists_failed) does not exist'),
            409: problemResponse('`provider_auth_expired`: the account needs reconnecting (`action.type` = reconnect_account); nothing was kept'),
            410: problemResponse('The import expired; preview the source again'),
            ...bodyRefusals,
            422: problemResponse(
              '`reason`: unsupported_source (the account belongs to another provider), unknown_format (not one of the five formats; `writable_formats`), too_many_playlists (`max_playlists`, OPL_EXPORT_MAX_PLAYLISTS), invalid_selection (what was not found), or write_failed (the format plugin could not write a playlist)',
            ),
            429: problemResponse('`provider_rate_limited`: the provider asks to slow down (Retry-After); nothing was kept'),
            502: problemResponse('The provider failed or could not be reached'),
            503: problemResponse(SERVER_UNAVAILABLE),
          },
        },
      },
      async (request, reply) => {
        const owner = requireOwner(request, 'export playlists');
        const body = { ...request.body, source_provider: route.providerKey(request.body.source_provider) };
        if (!UUID.test(body.source_account_id)) {
          throw new AppError('not_found', `No ${body.source_provider === IMPORT_SOURCE_PROVIDER ? 'import' : 'account'} ${clip(body.source_account_id, 100)} exists for this owner.`);
        }
        return download(request, reply, (signal) =>
          exports.export(owner.id, { source_provider: body.source_provider, source_account_id: body.source_account_id, format: body.format, selection: body.selection }, { signal }),
        );
      },
    );
  }

  app.post(
    '/api/exports/migrations/:job_id',
    {
      schema: {
        tags: ['exports'],
        summary: "Download the playlists a finished migration moved, from the engine's stored history (no provider is called)",
        description: `${DESCRIPTION} Tracks come from the items' stored source metadata in source order; playlist details from the snapshot the job kept. Warning codes as for live exports, plus historical_playlist_metadata_partial (an older job without a playlist snapshot) and historical_track_metadata_partial (tracks rebuilt from the item columns).`,
        params: z.object({ job_id: z.string().min(1).max(100) }),
        body: historyBodySchema,
        response: {
          200: fileResponse('The file (its content type is the format\'s), or application/zip for several playlists'),
          400: problemResponse('Invalid body'),
          404: problemResponse('No such migration for this owner'),
          409: problemResponse('`migration_state_conflict`: the migration has not finished yet'),
          410: problemResponse('`migration_detail_expired`: the item detail passed its retention deadline'),
          ...bodyRefusals,
          422: problemResponse('`reason`: no_playlist_portion (albums or artists only: use the report), unknown_format, too_many_playlists, write_failed (the format plugin could not write a playlist)'),
          503: problemResponse(SERVER_UNAVAILABLE),
        },
      },
    },
    async (request, reply) => {
      const owner = requireOwner(request, 'export migration history');
      const jobId = request.params.job_id;
      if (!UUID.test(jobId)) throw new AppError('not_found', `No migration ${clip(jobId, 100)} exists for this owner.`);
      return download(request, reply, (signal) => exports.exportMigration(owner.id, jobId, request.body.format, { signal }));
    },
  );
};

/** For building the server without a database (the OpenAPI generator): every call refuses. */
export function unavailableExports(): ExportsApi {
  const refuse = async (): Promise<never> => {
    throw new Error('exports are not wired in this server');
  };
  return { export: refuse, exportMigration: refuse, writableFormats: () => [], maxPlaylists: 0 };
}
