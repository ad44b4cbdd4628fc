import type { formatKit, PlaylistInput, TrackInput } from '@opl/plugin-sdk';
import { applyGenericTrackFields } from './generic-track-fields.ts';
import { isRecord, PLAYLIST_FIELDS, TRACK_FIELDS, type FieldTable } from './model-fields.ts';

/**
 * Parsed JSON values → universal Playlists and Tracks, checked field by field. A bad track is
 * reported with its JSON Pointer (`/playlists/0/tracks/5: title must be a string`) and left out
 * while its neighbours are kept; a playlist with a bad field of its own is left out whole.
 * Absent fields stay absent (the host's validation of the result fills in the model's defaults);
 * fields the model does not know are dropped, with one warning per field name and kind of
 * entity. The walk is loops over a fixed shape, never recursion.
 */

type Entity = Record<string, unknown>;

export class ModelReader {
  readonly #issues: formatKit.IssueCollector;
  readonly #reportedUnknown = new Set<string>();
  /** Whether the document is a plain export rather than a bundle: its `duration`, `uri` and missing `artist` are read (generic-track-fields.ts). */
  readonly #generic: boolean;

  constructor(issues: formatKit.IssueCollector, options: { readonly generic: boolean } = { generic: false }) {
    this.#issues = issues;
    this.#generic = options.generic;
  }

  #entity(raw: unknown, fields: FieldTable, pointer: string, kind: 'playlist' | 'track', skip: string | null = null): Entity | null {
    const code = kind === 'track' ? 'invalid_track' : 'invalid_playlist';
    if (!isRecord(raw)) {
      this.#issues.add(null, code, `${pointer || '/'}: a ${kind} must be a JSON object`);
      return null;
    }
    // The parsed object itself becomes the result (no copy: a 100,000-track file must fit the
    // sandbox's memory twice over, once as text and once as objects, and no more).
    let valid = true;
    let present = 0;
    for (const [key, spec] of fields) {
      const value = Object.hasOwn(raw, key) ? raw[key] : undefined;
      if (value === undefined) {
        if (spec.required) {
          this.#issues.add(null, code, `${pointer || '/'}: ${key} is required`);
          valid = false;
        }
        continue;
      }
      present += 1;
      const problem = spec.check(value);
      if (problem !== null) {
        this.#issues.add(null, code, `${pointer || '/'}: ${key} ${problem}`);
        valid = false;
      }
    }
    const keys = Object.keys(raw);
    // Only when some key is not a model field (the usual bundle has none) are they looked at one by one.
    if (keys.length > present) this.#dropUnknown(raw, keys, fields, pointer, kind, skip);
    return valid ? raw : null;
  }

  #dropUnknown(raw: Entity, keys: readonly string[], fields: FieldTable, pointer: string, kind: 'playlist' | 'track', skip: string | null): void {
    for (const key of keys) {
      if (fields.has(key) || key === skip) continue;
      delete raw[key];
      if (this.#reportedUnknown.has(`${kind}\u0000${key}`)) continue;
      this.#reportedUnknown.add(`${kind}\u0000${key}`);
      this.#issues.add(null, 'unknown_field', `${pointer || '/'}: the ${kind} field ${JSON.stringify(key.slice(0, 100))} is not part of the model and was ignored (reported once)`, 'warning');
    }
  }

  track(raw: unknown, pointer: string): TrackInput | null {
    if (this.#generic && isRecord(raw)) applyGenericTrackFields(raw, { warn: (message) => this.#issues.add(null, 'invalid_value', `${pointer}: ${message}`, 'warning') });
    return this.#entity(raw, TRACK_FIELDS, pointer, 'track') as TrackInput | null;
  }

  /** The playlist with its valid tracks in their order, or null when the playlist itself is invalid. */
  playlist(raw: unknown, pointer: string): PlaylistInput | null {
    const fields = this.#entity(raw, PLAYLIST_FIELDS, pointer, 'playlist', 'tracks');
    if (fields === null) return null;
    const rawTracks = (raw as Entity).tracks ?? [];
    if (!Array.isArray(rawTracks)) {
      this.#issues.add(null, 'invalid_playlist', `${pointer || '/'}: tracks must be an array`);
      return null;
    }
    const tracks: TrackInput[] = [];
    for (const [index, rawTrack] of rawTracks.entries()) {
      const track = this.track(rawTrack, `${pointer}/tracks/${index}`);
      if (track !== null) tracks.push(track);
    }
    fields.tracks = tracks;
    return fields as PlaylistInput;
  }
}
