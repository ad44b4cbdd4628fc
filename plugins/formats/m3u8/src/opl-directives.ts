import { formatKit, type Playlist, type Track } from '@opl/plugin-sdk';
import {
  artistsCodec,
  booleanCodec,
  countCodec,
  creditsCodec,
  dateTimeCodec,
  integerCodec,
  mediaTypeCodec,
  metadataCodec,
  playlistKindCodec,
  providerUrisCodec,
  releaseDateCodec,
  textCodec,
  type Codec,
} from './values.ts';

/**
 * The `#OPL-*` metadata comments, schema version 1. Each is `#OPL-<NAME>:<value>` on its own
 * line, the value escaped (directive-escape.ts). Players skip them as comments; our reader
 * restores every field they carry. The set is stable for schema version 1: new directives may be
 * added (old readers ignore them), existing ones never change meaning.
 *
 * A directive is written only when its field differs from the model's default (null, empty,
 * `track`, …), except `#OPL-PLAYLIST-KIND`, which is always written. The directives with special
 * rules (written only when the standard lines cannot carry the exact value, or naming the source
 * URI) are handled by the serializer and parser themselves: `#OPL-SCHEMA-VERSION`,
 * `#OPL-PLAYLIST-NAME`, `#OPL-TITLE`, `#OPL-ARTIST`, `#OPL-DURATION`, `#OPL-SOURCE-URI`.
 */

export const SCHEMA_VERSION_DIRECTIVE = 'OPL-SCHEMA-VERSION';
export const PLAYLIST_NAME_DIRECTIVE = 'OPL-PLAYLIST-NAME';
export const TITLE_DIRECTIVE = 'OPL-TITLE';
export const ARTIST_DIRECTIVE = 'OPL-ARTIST';
export const DURATION_DIRECTIVE = 'OPL-DURATION';
export const SOURCE_URI_DIRECTIVE = 'OPL-SOURCE-URI';

export interface FieldDirective<M> {
  readonly name: string;
  /** The value to write, or null to leave the directive out. */
  write(model: M): string | null;
  /** Stores the value read into `target`; returns a problem description or null. */
  read(text: string, target: Record<string, unknown>): string | null;
}

type NullableKeys<M> = { [K in keyof M]: null extends M[K] ? K : never }[keyof M];

function field<M, T>(name: string, key: keyof M & string, codec: Codec<T>, isDefault: (value: T) => boolean): FieldDirective<M> {
  return {
    name,
    write: (model) => {
      const value = model[key] as T | null;
      return value === null || isDefault(value) ? null : codec.write(value);
    },
    read: (text, target) => {
      const result = codec.read(text);
      if (result.problem !== undefined) return result.problem;
      target[key] = result.value;
      return null;
    },
  };
}

/** `{spotify: 'spotify:track:x'}`: exactly one URI, keyed by its own scheme. */
function isSchemeKeyedSingle(uris: Readonly<Record<string, string>>): boolean {
  const entries = Object.entries(uris);
  return entries.length === 1 && formatKit.providerOfUri(entries[0]?.[1] ?? '') === entries[0]?.[0];
}

const never = (): boolean => false;
const isEmptyObject = (value: Readonly<Record<string, unknown>>): boolean => Object.keys(value).length === 0;
const isEmptyArray = (value: readonly unknown[]): boolean => value.length === 0;

function text<M>(name: string, key: NullableKeys<M> & string, max = 10_000): FieldDirective<M> {
  return field<M, string>(name, key, textCodec(max), never);
}

export const PLAYLIST_DIRECTIVES: readonly FieldDirective<Playlist>[] = [
  text('OPL-PLAYLIST-ID', 'id'),
  text('OPL-PLAYLIST-DESCRIPTION', 'description'),
  field('OPL-PLAYLIST-KIND', 'kind', playlistKindCodec, never),
  text('OPL-PLAYLIST-OWNER-ID', 'owner_id'),
  text('OPL-PLAYLIST-OWNER-NAME', 'owner_name'),
  text('OPL-PLAYLIST-PHOTO', 'photo'),
  text('OPL-PLAYLIST-ARTWORK-URI', 'artwork_uri'),
  field('OPL-PLAYLIST-CREATED-AT', 'created_at', dateTimeCodec, never),
  field('OPL-PLAYLIST-UPDATED-AT', 'updated_at', dateTimeCodec, never),
  text('OPL-PLAYLIST-SNAPSHOT-ID', 'snapshot_id'),
  field('OPL-PLAYLIST-TRACK-COUNT', 'track_count', countCodec, never),
  field('OPL-PLAYLIST-IS-OWNED', 'is_owned', booleanCodec, never),
  field('OPL-PLAYLIST-IS-FOLLOWED', 'is_followed', booleanCodec, never),
  field('OPL-PLAYLIST-COLLABORATIVE', 'collaborative', booleanCodec, never),
  field('OPL-PLAYLIST-PROVIDER-URIS', 'provider_uris', providerUrisCodec, isEmptyObject),
  field('OPL-PLAYLIST-METADATA', 'metadata', metadataCodec, isEmptyObject),
];

/** Per-track directives, written between the entry's `#EXTINF` line and its location. */
export const TRACK_DIRECTIVES: readonly FieldDirective<Track>[] = [
  text('OPL-TRACK-ID', 'id'),
  text('OPL-SOURCE-ITEM-ID', 'source_item_id'),
  field('OPL-ARTISTS', 'artists', artistsCodec, isEmptyArray),
  text('OPL-ALBUM', 'album'),
  field('OPL-ISRC', 'isrc', textCodec(32), never),
  field('OPL-RELEASE-DATE', 'release_date', releaseDateCodec, never),
  field('OPL-RELEASE-YEAR', 'release_year', integerCodec, never),
  text('OPL-GENRE', 'genre'),
  field('OPL-TRACK-NUMBER', 'track_number', integerCodec, never),
  field('OPL-DISC-NUMBER', 'disc_number', integerCodec, never),
  field('OPL-EXPLICIT', 'explicit', booleanCodec, never),
  text('OPL-COMPOSER', 'composer'),
  field('OPL-CREDITS', 'credits', creditsCodec, isEmptyArray),
  text('OPL-LABEL', 'label'),
  text('OPL-ARTWORK-URI', 'artwork_uri'),
  // One provider-style URI under its own scheme's key is carried by #OPL-SOURCE-URI alone.
  field('OPL-PROVIDER-URIS', 'provider_uris', providerUrisCodec, (uris) => isEmptyObject(uris) || isSchemeKeyedSingle(uris)),
  field('OPL-MEDIA-TYPE', 'media_type', mediaTypeCodec, (value) => value === 'track'),
  field('OPL-IS-LOCAL', 'is_local', booleanCodec, (value) => !value),
  field('OPL-IS-MIGRATABLE', 'is_migratable', booleanCodec, (value) => value),
  text('OPL-UNSUPPORTED-REASON', 'unsupported_reason'),
  field('OPL-ADDED-AT', 'added_at', dateTimeCodec, never),
  field('OPL-SOURCE-POSITION', 'source_position', integerCodec, never),
  field('OPL-METADATA', 'metadata', metadataCodec, isEmptyObject),
  field('OPL-PROVIDER-METADATA', 'provider_metadata', metadataCodec, isEmptyObject),
];

function byName<M>(directives: readonly FieldDirective<M>[]): ReadonlyMap<string, FieldDirective<M>> {
  return new Map(directives.map((directive) => [directive.name, directive]));
}

export const PLAYLIST_DIRECTIVES_BY_NAME = byName(PLAYLIST_DIRECTIVES);
export const TRACK_DIRECTIVES_BY_NAME = byName(TRACK_DIRECTIVES);
