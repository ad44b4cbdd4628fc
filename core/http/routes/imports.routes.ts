import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import type { IncomingHttpHeaders } from 'node:http';
import { z } from 'zod';
import {
  cleanFileName,
  importCollectionIds,
  ImportPreviewError,
  ImportRecordError,
  type ImportPreviewService,
  type ImportRecordContents,
  type ImportRecordService,
} from '../../services/imports/index.ts';
import { AppError, problemResponse } from '../errors/index.ts';
import { requireActor, requireOwner } from '../owner/owner-gate.ts';

/** What the import routes use; `createApp` wires the real services. */
export interface ImportsApi {
  records: Pick<ImportRecordService, 'get' | 'delete' | 'list'>;
  preview: Pick<ImportPreviewService, 'previewUpload' | 'previewText' | 'previewUrl' | 'limits'>;
}

/** Tracks per playlist shown in a preview answer; `GET /api/imports/{id}` has them all. */
export const PREVIEW_TRACKS = 25;
/** Longest pasted text, in characters (its UTF-8 size is also held to OPL_IMPORT_MAX_BYTES). */
export const MAX_TEXT_CHARS = 5_000_000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const issueSchema = z
  .object({
    line: z.number().int().nullable().describe('1-based line of the content, when the problem has one'),
    column: z.number().int().nullable(),
    code: z.string(),
    message: z.string(),
    severity: z.enum(['error', 'warning']),
  })
  .meta({ id: 'ImportIssue' });

const trackSchema = z
  .looseObject({ title: z.string(), artist: z.string() })
  .describe('A universal Track model (see the Open Playlist bundle schema); ordered')
  .meta({ id: 'ImportTrack' });

const recordFields = {
  id: z.string(),
  kind: z.enum(['file', 'text', 'url']),
  name: z.string().nullable().describe('The uploaded file name, or the name given to pasted text'),
  format: z.string().nullable().describe('The format that read it: csv, txt, m3u8, pls, wpl, xspf, xml, itunes-library, json'),
  state: z.enum(['previewed', 'queued', 'retained']).describe('queued: a migration holds it as its source'),
  created_at: z.string(),
  expires_at: z.string(),
  playlist_count: z.number().int(),
  track_count: z.number().int(),
  issues: z.array(issueSchema).describe('Line-level problems (at most 200); rows with errors were skipped, their neighbours kept'),
  collection_ids: z
    .array(z.string())
    .describe(
      "One per playlist, in the order of `playlists`: the id `POST /api/migrations`, `POST /api/exports` (`source_provider` \"import\") and shares name the playlist by. Unique within the record: the playlist's own id, else its 0-based index (\"0\", \"1\", …); a later playlist whose id an earlier one already has is named `<id>#<index>` (with `#2`, `#3`, … appended should that be taken too).",
    ),
};

const importPreviewSchema = z
  .object({
    ...recordFields,
    playlists: z.array(
      z.object({
        id: z.string().nullable().describe("The playlist's own id, when the source has one; shares, exports and migrations name a playlist by its entry in `collection_ids`"),
        name: z.string(),
        description: z.string().nullable(),
        track_count: z.number().int(),
        tracks: z.array(trackSchema).describe(`The first ${PREVIEW_TRACKS} tracks`),
      }),
    ),
  })
  .meta({ id: 'ImportPreview' });

const importRecordSchema = z
  .object({
    ...recordFields,
    playlists: z.array(z.looseObject({ name: z.string(), tracks: z.array(trackSchema) }).describe('A universal Playlist model with every track, in order')),
  })
  .meta({ id: 'ImportRecord' });

function baseView(record: ImportRecordContents) {
  return {
    id: record.id,
    kind: record.kind,
    name: record.name,
    format: record.format,
    state: record.state,
    created_at: record.createdAt.toISOString(),
    expires_at: record.expiresAt.toISOString(),
    playlist_count: record.playlists.length,
    track_count: record.playlists.reduce((sum, playlist) => sum + playlist.tracks.length, 0),
    issues: record.issues,
    collection_ids: importCollectionIds(record.playlists),
  };
}

function previewView(record: ImportRecordContents): z.input<typeof importPreviewSchema> {
  return {
    ...baseView(record),
    playlists: record.playlists.map((playlist) => ({
      id: playlist.id,
      name: playlist.name,
      description: playlist.description,
      track_count: playlist.tracks.length,
      tracks: playlist.tracks.slice(0, PREVIEW_TRACKS),
    })),
  };
}

export function toAppError(error: unknown): unknown {
  if (error instanceof ImportPreviewError) {
    switch (error.reason) {
      case 'too_large':
        // The rest of the body is never read: close the connection instead of draining it.
        return new AppError('payload_too_large', error.message, { extensions: error.extensions, headers: { connection: 'close' } });
      case 'unsupported_format':
        return new AppError('unsupported_media_type', error.message, { extensions: error.extensions });
      case 'invalid_request':
        return new AppError('validation_failed', error.message);
      case 'aborted':
        return new AppError('malformed_body', error.message);
      case 'unprocessable':
      case 'url_refused':
      case 'needs_connection':
      case 'invalid_account':
        return new AppError('unprocessable_content', error.message, { extensions: error.extensions });
      case 'needs_reconnect':
        return new AppError('provider_auth_expired', error.message, { extensions: error.extensions });
      case 'rate_limited': {
        const retry = error.extensions.retry_after_s;
        return new AppError('provider_rate_limited', error.message, { extensions: error.extensions, ...(typeof retry === 'number' ? { headers: { 'retry-after': String(retry) } } : {}) });
      }
      case 'not_found':
        return new AppError('not_found', error.message, { extensions: error.extensions });
      case 'upstream_failed':
        return new AppError('bad_gateway', error.message, { extensions: error.extensions });
      case 'reader_unavailable':
      case 'busy': {
        // The server's state, not the content's: the same request may succeed later.
        const retry = error.extensions.retry_after_s;
        return new AppError('service_unavailable', error.message, { extensions: error.extensions, ...(typeof retry === 'number' ? { headers: { 'retry-after': String(retry) } } : {}) });
      }
    }
  }
  if (error instanceof ImportRecordError) {
    if (error.reason === 'expired') return new AppError('gone', error.message);
    if (error.reason === 'queued') return new AppError('conflict', error.message);
    return new AppError('not_found', error.message);
  }
  return error;
}

/** The file name a client sends with a raw upload: `X-Filename` (percent-encoded) or Content-Disposition. */
function headerFileName(headers: IncomingHttpHeaders): string | undefined {
  const header = headers['x-filename'];
  const direct = Array.isArray(header) ? header[0] : header;
  if (direct) {
    try {
      return decodeURIComponent(direct);
    } catch {
      throw new AppError('validation_failed', 'The X-Filename header is not valid percent-encoding.');
    }
  }
  const disposition = headers['content-disposition'];
  if (!disposition) return undefined;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(disposition);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      throw new AppError('validation_failed', 'The Content-Disposition filename* is not valid percent-encoding.');
    }
  }
  return /filename\s*=\s*"([^"]*)"/.exec(disposition)?.[1] ?? /filename\s*=\s*([^;\s]+)/.exec(disposition)?.[1];
}

const idParams = z.object({ id: z.string().max(100).describe('Import record id') });

function requireUuid(id: string): string {
  if (!UUID.test(id)) throw new AppError('not_found', `No import ${id.slice(0, 100)} exists for this owner.`);
  return id;
}

export const importRoutes: FastifyPluginAsyncZod<{ imports: ImportsApi }> = async (app, { imports }) => {
  await app.register(async (raw) => {
    // The upload stays a stream: no parser buffers it, whatever its Content-Type says.
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', (_request, payload, done) => {
      done(null, payload);
    });

    raw.withTypeProvider<ZodTypeProvider>().post(
      '/api/imports/preview',
      {
        schema: {
          tags: ['imports'],
          summary: 'Preview a local playlist file: the raw file is the request body (any Content-Type)',
          description:
            'The body streams into a bounded spool (memory, then a private temporary file removed afterwards). The file name comes from `filename`, `X-Filename` (percent-encoded) or `Content-Disposition`; the format from its extension, the Content-Type, or the content. Formats: csv, txt, m3u/m3u8, pls, wpl, xspf, jspf, plain XML playlists, iTunes / Apple Music Library.xml (plist), Open Playlist JSON and plain JSON playlists.',
          querystring: z.object({ filename: z.string().min(1).max(255).optional().describe('Name of the uploaded file, e.g. `Road Trip.m3u8`') }),
          response: {
            201: importPreviewSchema,
            400: problemResponse('Invalid file name, or the upload broke off'),
            413: problemResponse('The file exceeds OPL_IMPORT_MAX_BYTES (detail and `max_bytes` say the limit)'),
            415: problemResponse('No format plugin reads this file (`readable_formats` lists those that do)'),
            422: problemResponse('The file cannot be read, holds no playlist, or exceeds the playlist/track limits (counts in the body)'),
            503: problemResponse('The reader cannot run now: switched off by an administrator, restarting, or too many files wait for it (Retry-After)'),
          },
        },
      },
      async (request, reply) => {
        const owner = requireOwner(request, 'import playlists');
        try {
          const fileName = cleanFileName(request.query.filename ?? headerFileName(request.headers));
          const length = request.headers['content-length'];
          const declaredBytes = length !== undefined && /^\d+$/.test(length) ? Number(length) : null;
          const body = request.body instanceof Readable ? request.body : Readable.from([]);
          const record = await imports.preview.previewUpload(owner.id, body, {
            fileName,
            mediaType: request.headers['content-type'] ?? null,
            declaredBytes,
          });
          return await reply.status(201).send(previewView(record));
        } catch (error) {
          throw toAppError(error);
        }
      },
    );
  });

  app.post(
    '/api/imports/text-preview',
    {
      bodyLimit: Math.min(MAX_TEXT_CHARS * 6, imports.preview.limits.maxBytes * 6) + 64 * 1024,
      schema: {
        tags: ['imports'],
        summary: 'Preview pasted text: "Artist - Title" lines, TXT v1, or a CSV/semicolon table with a header',
        body: z
          .object({
            text: z.string().describe(`The pasted text; at most ${MAX_TEXT_CHARS} characters and OPL_IMPORT_MAX_BYTES as UTF-8`),
            name: z.string().trim().min(1).max(255).optional().describe('Playlist name; default "Imported playlist"'),
          })
          .strict(),
        response: {
          201: importPreviewSchema,
          400: problemResponse('Invalid body'),
          413: problemResponse('The text exceeds the size limit'),
          422: problemResponse('No track could be read (line-level issues in the body), or the playlist/track limits are exceeded'),
          503: problemResponse('The reader cannot run now: switched off by an administrator, restarting, or too many files wait for it (Retry-After)'),
        },
      },
    },
    async (request, reply) => {
      const owner = requireOwner(request, 'import playlists');
      try {
        const { text, name } = request.body;
        if (text.length > MAX_TEXT_CHARS) {
          throw new AppError('payload_too_large', `The pasted text has ${text.length} characters; at most ${MAX_TEXT_CHARS} are accepted. Upload it as a file instead.`, {
            extensions: { max_chars: MAX_TEXT_CHARS },
          });
        }
        const record = await imports.preview.previewText(owner.id, text, name ?? null);
        return await reply.status(201).send(previewView(record));
      } catch (error) {
        throw toAppError(error);
      }
    },
  );

  app.post(
    '/api/imports/url-preview',
    {
      schema: {
        tags: ['imports'],
        summary: 'Preview a public link: a share link, a provider playlist link, or remote Open Playlist JSON on an allowed host',
        description:
          'A share link of this engine (`/share/{token}`) is read from its snapshot without any request. A provider playlist link (declared by a provider plugin) is read through one of your connected accounts of that provider (`account_id` chooses one; otherwise each is tried) — never by fetching its web page; when none can read it the answer is 422 with `action: {type: "connect_source_account", provider, display_name}`, when the account must be reconnected 409 with `action: {type: "reconnect_account", account_id}`. A share link of another engine on an allowed host fetches only `https://host/api/public/shares/{token}`. Rules checked before any request: https only, exact allowed host and path prefix, no credentials, default port, bounded length, no IP-literal host. The fetch refuses non-public DNS answers at connect time, keeps redirects on allowed hosts, disables compression and caps time, headers and bytes.',
        body: z
          .object({
            url: z.string().min(1).max(4_096).describe('The public link'),
            account_id: z.uuid().optional().describe('For a provider playlist link: the connected account that reads it'),
          })
          .strict(),
        response: {
          201: importPreviewSchema,
          400: problemResponse('Invalid body'),
          404: problemResponse('The share link leads to no share (revoked, expired or mistyped)'),
          409: problemResponse('The provider account must be reconnected (`action.type` = reconnect_account, `action.account_id`)'),
          413: problemResponse('The remote document exceeds OPL_IMPORT_MAX_BYTES'),
          415: problemResponse('No Open Playlist JSON reader is loaded'),
          422: problemResponse('The URL is not importable (`reason`), the content cannot be read, or a provider account must be connected (`action`)'),
          429: problemResponse('The provider asks to slow down (Retry-After)'),
          502: problemResponse('The remote server or the provider failed, timed out or did not answer with the playlist'),
          503: problemResponse('The reader cannot run now: switched off by an administrator, restarting, or too many files wait for it (Retry-After)'),
        },
      },
    },
    async (request, reply) => {
      const owner = requireOwner(request, 'import playlists');
      try {
        const record = await imports.preview.previewUrl(owner.id, request.body.url, {
          accountId: request.body.account_id ?? null,
          requestOrigin: `${request.protocol}://${request.host}`,
        });
        return await reply.status(201).send(previewView(record));
      } catch (error) {
        throw toAppError(error);
      }
    },
  );

  app.get(
    '/api/imports/:id',
    {
      config: { shareRecipients: true },
      schema: {
        tags: ['imports'],
        summary: 'An import record with every normalised playlist and track, and its issues',
        params: idParams,
        response: {
          200: importRecordSchema,
          404: problemResponse('No such import for this owner'),
          410: problemResponse('The import expired; preview the source again'),
        },
      },
    },
    async (request) => {
      const owner = requireActor(request, 'read imports');
      try {
        const record = await imports.records.get(owner.id, requireUuid(request.params.id));
        return { ...baseView(record), playlists: record.playlists };
      } catch (error) {
        throw toAppError(error);
      }
    },
  );

  app.delete(
    '/api/imports/:id',
    {
      schema: {
        tags: ['imports'],
        summary: 'Delete an import record',
        params: idParams,
        response: {
          204: z.null().describe('Deleted'),
          404: problemResponse('No such import for this owner'),
          409: problemResponse('A migration has queued this import as its source'),
        },
      },
    },
    async (request, reply) => {
      const owner = requireOwner(request, 'delete imports');
      try {
        await imports.records.delete(owner.id, requireUuid(request.params.id));
        return await reply.status(204).send(null);
      } catch (error) {
        throw toAppError(error);
      }
    },
  );

  // The migration wizard's source step lists what it can start from (added for issue 8).
  app.get(
    '/api/imports',
    {
      config: { shareRecipients: true },
      schema: {
        tags: ['imports'],
        summary: "The owner's import records a migration can start from: not expired, not queued; newest first, without their contents",
        response: {
          200: z.object({
            imports: z.array(
              z.object({
                id: z.string(),
                kind: z.enum(['file', 'text', 'url']),
                name: z.string().nullable(),
                format: z.string().nullable(),
                state: z.string(),
                created_at: z.string(),
                expires_at: z.string(),
                playlist_count: z.number().int(),
                track_count: z.number().int(),
              }),
            ),
          }),
        },
      },
    },
    async (request) => {
      const owner = requireActor(request, 'list imports');
      const records = await imports.records.list(owner.id);
      return {
        imports: records.map((record) => ({
          id: record.id,
          kind: record.kind,
          name: record.name,
          format: record.format,
          state: record.state,
          created_at: record.createdAt.toISOString(),
          expires_at: record.expiresAt.toISOString(),
          playlist_count: record.playlistCount,
          track_count: record.trackCount,
        })),
      };
    },
  );
};

/** For building the server without a database (the OpenAPI generator): every call refuses. */
export function unavailableImports(limits: ImportsApi['preview']['limits']): ImportsApi {
  const refuse = async (): Promise<never> => {
    throw new Error('imports are not wired in this server');
  };
  return {
    records: { get: refuse, delete: refuse, list: refuse },
    preview: { previewUpload: refuse, previewText: refuse, previewUrl: refuse, limits },
  };
}
