import { PluginError } from './errors.ts';
import type { TrackInput } from './model.schema.ts';

/**
 * `lookupTracks` for a service that reads one track per request (Spotify's Get Track, Deezer's
 * `/track/{id}`): one answer per input URI, in input order, from one read per distinct id, the
 * reads one at a time. `idOf` gives the service's track id a URI stands for (null: no track of
 * this service, answered null without a read). `read` answers null for an id the catalogue does
 * not have, and so does a read that fails as NotFound; any other failure (rate limit, expired
 * token, 5xx) ends the whole call with that typed error, as the operation has no partial answer.
 */
export async function lookupEach(uris: readonly string[], idOf: (uri: string) => string | null, read: (id: string) => Promise<TrackInput | null>): Promise<{ tracks: Array<TrackInput | null> }> {
  const ids = uris.map(idOf);
  const found = new Map<string, TrackInput | null>();
  for (const id of ids) {
    if (id === null || found.has(id)) continue;
    let track: TrackInput | null;
    try {
      track = await read(id);
    } catch (error) {
      if (!(error instanceof PluginError && error.type === 'NotFound')) throw error;
      track = null;
    }
    found.set(id, track);
  }
  return { tracks: ids.map((id) => (id === null ? null : (found.get(id) ?? null))) };
}
