import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { EXPORT_FORMATS } from '@opl/plugin-sdk/schemas';
import { ImportRecordError } from '../../services/imports/index.ts';
import { ExportError, type ExportService } from '../../services/exports/index.ts';
import { AppError, problemResponse } from '../errors/index.ts';
import { requireOwner } from '../owner/owner-gate.ts';

/** What the export routes use; `createApp` wires the real service. */
export type ExportsApi = Pick<ExportService, 'export'>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const selectionSchema = z
  .object({
    index: z.number().int().nonnegative().optional().describe('0-based index of the playlist in the source'),
    id: z.string().min(1).max(10_000).optional().describe('The playlist id in the source (for import records without ids: `<import id>#<index>`)'),
    track_positions: z.array(z.number().int().nonnegative()).max(1_000_000).optional().describe('0-based positions of the tracks to export; order of the playlist is kept'),
    track_ids: z.array(z.string().min(1).max(10_000)).max(1_000_000).optional().describe('Ids of the tracks to export; order of the playlist is kept'),
  })
  .strict()
  .refine((value) => (value.index === undefined) !== (value.id === undefined), { message: 'give exactly one of index or id' })
  .refine((value) => value.track_positions === undefined || value.track_ids === undefined, { message: 'give at most one of track_positions or track_ids' });

const exportBodySchema = z
  .object({
    source: z
      .object({
        type: z.string().min(1).max(50).describe('`import` (an import record); provider accounts come later and are refused with 422 until then'),
        id: z.string().min(1).max(200).describe('The import record id'),
      })
      .strict(),
    format: z.string().min(1).max(50).describe(`Output format: ${EXPORT_FORMATS.join(', ')} (those a loaded format plugin writes)`),
    playlists: z
      .array(selectionSchema)
      .min(1)
      .max(100_000)
      .optional()
      .describe('Which playlists, in this order, optionally with a track selection (raises `partial_selection`); default: every playlist, whole'),
  })
  .strict()
  .meta({ id: 'ExportRequest' });

function toAppError(error: unknown): unknown {
  if (error instanceof ExportError) {
    return new AppError('unprocessable_content', error.message, { extensions: { reason: error.reason, ...error.extensions } });
  }
  if (error instanceof ImportRecordError) {
    if (error.reason === 'expired') return new AppError('gone', error.message);
    return new AppError('not_found', error.message);
  }
  return error;
}

/** `attachment` with an ASCII `filename` and the RFC 5987 `filename*` (UTF-8, percent-encoded). */
export function contentDisposition(asciiName: string, unicodeName: string): string {
  const ascii = asciiName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(unicodeName).replace(/['()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

export const exportRoutes: FastifyPluginAsyncZod<{ exports: ExportsApi }> = async (app, { exports }) => {
  app.post(
    '/api/exports',
    {
      schema: {
        tags: ['exports'],
        summary: 'Download playlists as a file: one playlist ⇒ the file itself, several ⇒ a ZIP64 archive with manifest.json',
        description:
          'Formats: csv (text/csv), txt (text/plain), m3u8 (application/vnd.apple.mpegurl), xspf (application/xspf+xml), json (application/vnd.open-playlist+json). Several playlists always give application/zip holding one file per playlist (for json: `open-playlist-bundle.json`) and `manifest.json` (export manifest v1). Headers: Content-Disposition (ASCII `filename` and UTF-8 `filename*`), Content-Length, `X-Open-Playlist-Schema-Version: 1`, `X-Open-Playlist-Warning-Count`. The file is built one playlist at a time in a private temporary file, streamed in 64 KiB chunks and removed afterwards. Warning codes: partial_selection, empty_playlist, unsupported_items, missing_source_uri (m3u8, xspf).',
        body: exportBodySchema,
        response: {
          200: z.any().describe('The file (see the description for content types), or application/zip for several playlists'),
          400: problemResponse('Invalid body'),
          404: problemResponse('No such import for this owner'),
          410: problemResponse('The import expired; preview the source again'),
          422: problemResponse(
            '`reason`: unsupported_source (only `import` for now), unknown_format (`writable_formats`), too_many_playlists (`max_playlists`, OPL_EXPORT_MAX_PLAYLISTS), invalid_selection, or write_failed',
          ),
        },
      },
    },
    async (request, reply) => {
      const owner = requireOwner(request, 'export playlists');
      const body = request.body;
      if (body.source.type === 'import' && !UUID.test(body.source.id)) throw new AppError('not_found', `No import ${body.source.id.slice(0, 100)} exists for this owner.`);
      const left = new AbortController();
      const onLeave = () => left.abort(new Error('the client closed the connection'));
      request.raw.socket?.once('close', onLeave);
      let artifact;
      try {
        artifact = await exports.export(owner.id, {
          source: body.source,
          format: body.format,
          playlists: body.playlists?.map((selection) => ({ index: selection.index, id: selection.id, trackPositions: selection.track_positions, trackIds: selection.track_ids })),
        }, { signal: left.signal });
      } catch (error) {
        if (left.signal.aborted) throw new AppError('malformed_body', 'The client closed the connection before the export was ready; nothing was kept.');
        throw toAppError(error);
      } finally {
        request.raw.socket?.off('close', onLeave);
      }
      // (The request stream itself is destroyed once its body is read: the socket tells whether the client left.)
      const socket = request.raw.socket as (typeof request.raw.socket | null);
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
      // Completion, client cancellation and errors all end in a `close` of the response or the file stream.
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
        .send(stream);
    },
  );
};

/** For building the server without a database (the OpenAPI generator): every call refuses. */
export function unavailableExports(): ExportsApi {
  return {
    export: async () => {
      throw new Error('exports are not wired in this server');
    },
  };
}
