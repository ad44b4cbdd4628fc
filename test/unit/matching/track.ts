import type { Track } from '@opl/plugin-sdk';

/** A universal Track with every field defaulted, for matching tests. */
export function track(fields: Partial<Track> & { title: string; artist: string }): Track {
  return {
    id: null, artists: [], album: null, duration_s: null, isrc: null, release_date: null, release_year: null, genre: null,
    track_number: null, disc_number: null, explicit: null, composer: null, credits: [], label: null, artwork_uri: null,
    provider_uris: {}, metadata: {}, media_type: 'track', is_local: false, position: null, is_migratable: true,
    unsupported_reason: null, source_item_id: null, added_at: null, source_position: null, provider_metadata: {},
    ...fields,
  };
}
