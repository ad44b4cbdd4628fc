import type { PlaylistInput } from '@opl/plugin-sdk';
import { expect } from 'vitest';
import { isAvailableOn, seedCatalog, type SeedTrack } from '../../fakes/seed-catalog.ts';

/** The songs, documents and checks the Open Playlist interchange tests share. */

export const catalog = seedCatalog();
export const onBoth = [...catalog.tracks.values()].filter((track) => track.mediaType === 'track' && isAvailableOn(track, 'spotify') && isAvailableOn(track, 'tidal'));
export const keys = (tracks: readonly SeedTrack[]) => tracks.map((track) => track.key);
export const small = onBoth.slice(0, 5);
export const big = onBoth.slice(10, 70);

export const MAX_BYTES = 200_000;
export const MAX_TRACKS = 100;

export interface OpenPlaylistJson {
  id: string;
  name: string;
  kind: string;
  track_count: number | null;
  tracks: { title: string; artist: string; isrc: string | null; duration_s: number | null; provider_uris: Record<string, string> }[];
}
export interface ProblemJson {
  code: string;
  detail: string;
  reason?: string;
  status: number;
  [key: string]: unknown;
}

export const bundle = (playlists: PlaylistInput[], extra: Record<string, unknown> = {}) => ({
  $schema: 'https://open-playlist.org/schemas/export/open-playlist-bundle-v1.json',
  schema_version: 1,
  source_provider: null,
  playlists,
  warnings: [],
  ...extra,
});

export type OpenApiDocument = { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };

/**
 * `expectProblem` for an engine reached through `api`: an error answer is problem+json with this
 * status and code, and a status the route's entry in the engine's own OpenAPI document lists.
 */
export function openApiProblems(api: (path: string) => Promise<{ json: unknown }>) {
  let served: OpenApiDocument | undefined;
  /** The statuses the engine's own OpenAPI document (GET /openapi.json) lists for a route. */
  async function documentedStatuses(method: 'get' | 'post', route: string): Promise<string[]> {
    served ??= (await api('/openapi.json')).json as OpenApiDocument;
    return Object.keys(served.paths[route]?.[method]?.responses ?? {});
  }

  /** An error answer: problem+json with this status and code, and a status the route's OpenAPI entry lists. */
  async function expectProblem(response: { status: number; json: unknown; text: string; headers: Headers }, method: 'get' | 'post', route: string, status: number, code: string): Promise<ProblemJson> {
    expect(response.status, response.text).toBe(status);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    const problem = response.json as ProblemJson;
    expect(problem.code, response.text).toBe(code);
    expect(await documentedStatuses(method, route), `${method.toUpperCase()} ${route} documents ${status}`).toContain(String(status));
    return problem;
  }
  return { expectProblem };
}
