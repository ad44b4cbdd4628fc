import { playlistSchema, trackSchema, type Playlist, type PlaylistKind } from '@opl/plugin-sdk/schemas';
import { z } from 'zod';
import { OpenPlaylistError } from '../../services/open-playlists/index.ts';

/**
 * The interchange API speaks the public `open-playlist.yaml`, whose Playlist and Track differ from
 * the engine's universal model (the bundle v1 of SPEC) in three spellings; everything else is the
 * same model. Translated here, at the edge, so that files and every other route keep the model:
 * - `kind` is `standard` / `liked_tracks` there, `PLAYLIST` / `LIKED_TRACKS` in the model. Answers
 *   use the yaml's words; posted documents may use either.
 * - `duration_s` is an integer there; the model keeps what the provider said (Spotify and Apple
 *   Music give milliseconds, so 200.123). Answers round to whole seconds, so a client generated
 *   from the yaml can read them.
 * - Provider keys: the yaml's examples say `apple_music` and `youtube_music`, the engine's plugins
 *   are `applemusic` and `ytmusic`. Posted keys may use either; answers use the engine's.
 */

const WIRE_KINDS = { PLAYLIST: 'standard', LIKED_TRACKS: 'liked_tracks' } as const satisfies Record<PlaylistKind, string>;
type WireKind = (typeof WIRE_KINDS)[PlaylistKind];
const MODEL_KINDS = new Map<string, PlaylistKind>(Object.entries(WIRE_KINDS).map(([model, wire]) => [wire, model as PlaylistKind]));

/** The yaml's spellings of provider keys that differ from the plugin ids. */
const PROVIDER_KEY_ALIASES: Readonly<Record<string, string>> = { apple_music: 'applemusic', youtube_music: 'ytmusic' };

/** The engine's provider key for one the yaml spells otherwise (`apple_music` → `applemusic`); others unchanged. */
export function canonicalProviderKey(key: string): string {
  return Object.hasOwn(PROVIDER_KEY_ALIASES, key) ? PROVIDER_KEY_ALIASES[key]! : key;
}

/** A Playlist as the interchange answers it. */
export type WirePlaylist = Omit<Playlist, 'kind' | 'tracks'> & { kind: WireKind; tracks: Array<Playlist['tracks'][number] & { duration_s: number | null }> };

export function toWirePlaylist(playlist: Playlist): WirePlaylist {
  return {
    ...playlist,
    kind: WIRE_KINDS[playlist.kind],
    tracks: playlist.tracks.map((track) => (track.duration_s === null || Number.isInteger(track.duration_s) ? track : { ...track, duration_s: Math.round(track.duration_s) })),
  };
}

/**
 * A posted Open Playlist document (a bundle or one Playlist) with the yaml's `kind` words turned
 * into the model's, leaving everything else (and anything it cannot read) to the bundle reader.
 * A `kind` in neither vocabulary is refused here, in the words a client of the yaml knows (the
 * model's check would name only PLAYLIST and LIKED_TRACKS).
 */
export function fromWireDocument(document: Record<string, unknown>): Record<string, unknown> {
  const playlist = (value: unknown, path: string): unknown => {
    if (typeof value !== 'object' || value === null || Array.isArray(value) || !('kind' in value)) return value;
    const kind = (value as { kind?: unknown }).kind;
    if (kind === undefined || (typeof kind === 'string' && Object.hasOwn(WIRE_KINDS, kind))) return value;
    const model = typeof kind === 'string' ? MODEL_KINDS.get(kind) : undefined;
    if (model !== undefined) return { ...value, kind: model };
    const message = `${(JSON.stringify(kind) ?? typeof kind).slice(0, 60)} is not a playlist kind: use "standard" or "liked_tracks" (the bundle v1's "PLAYLIST" and "LIKED_TRACKS" are read too), or leave kind out for a standard playlist`;
    const at = path === '' ? 'kind' : `${path}.kind`;
    throw new OpenPlaylistError('invalid_document', `provider_data is not a valid Open Playlist document: ${at}: ${message}`, { issues: [{ path: at, message }] });
  };
  if (Array.isArray(document['playlists'])) return { ...document, playlists: document['playlists'].map((value, index) => playlist(value, `playlists.${index}`)) };
  return playlist(document, '') as Record<string, unknown>;
}

/** The response schema of a wire Playlist: the model's, with the yaml's `kind` and whole-second durations. */
export const wirePlaylistSchema = playlistSchema.extend({
  kind: z.enum(['standard', 'liked_tracks']).describe('`standard`, or `liked_tracks` for a provider\'s liked/saved songs (the bundle v1 says PLAYLIST / LIKED_TRACKS)'),
  tracks: z.array(trackSchema.extend({ duration_s: z.number().int().nonnegative().max(1_000_000).nullable().describe('Whole seconds (rounded)') })),
});
