import type { Capability, Manifest } from '@opl/plugin-sdk';

/**
 * One row of the `/providers` capability matrix, derived only from a loaded plugin's manifest, so
 * what the UI offers is exactly what the plugin declared (and what the host will allow it to do).
 */
export interface ProviderView {
  name: string;
  display_name: string;
  plugin: { id: string; version: string; signed: boolean };
  auth_kinds: string[];
  official: boolean;
  stability: string;
  has_isrc: boolean;
  search_modes: string[];
  capabilities: Capability[];
  can_source: boolean;
  can_target: boolean;
  can_mirror: boolean;
  mirror_unavailable_reason: string | null;
  can_remove_tracks: boolean;
  can_unfollow_playlist: boolean;
  can_delete_playlist: boolean;
  max_add_batch: number;
  max_remove_batch: number;
  max_playlist_size: number | null;
  supports_duplicates: boolean;
  ordering: string;
  description_max_len: number | null;
  liked_tracks: { read: boolean };
  saved_albums: { read: boolean; write: boolean };
  followed_artists: { read: boolean; write: boolean };
  pacing: { search_quota_cost: number; write_quota_cost: number; daily_quota: number | null };
  warning: string | null;
  /** Served by a simulated in-process demo provider (`OPL_DEMO`). */
  demo: boolean;
  /** Whether an account can be connected here now, and why not. */
  connectable: boolean;
  connect_unavailable_reason: string | null;
}

export function providerView(manifest: Manifest, signed: boolean): ProviderView | null {
  const provider = manifest.provider;
  if (manifest.kind !== 'provider' || !provider) return null;
  const has = (capability: Capability) => provider.capabilities.includes(capability);
  const canRemove = has('REMOVE_TRACKS');
  const canMirror = provider.can_mirror && has('ADD_TRACKS') && canRemove;
  let mirrorReason: string | null = null;
  if (!canMirror) {
    mirrorReason =
      provider.mirror_unavailable_reason ??
      (!canRemove
        ? `${provider.display_name} cannot remove tracks from a playlist, so mirror cannot make the target match the source. Use add-only migration instead.`
        : `${provider.display_name} does not support replacing a playlist's contents. Use add-only migration instead.`);
  }
  return {
    name: provider.name,
    display_name: provider.display_name,
    plugin: { id: manifest.id, version: manifest.version, signed },
    auth_kinds: provider.auth.map((method) => method.kind),
    official: provider.attributes.official,
    stability: provider.attributes.stability,
    has_isrc: provider.attributes.has_isrc,
    search_modes: provider.attributes.search_modes,
    capabilities: [...provider.capabilities],
    can_source: has('READ_PLAYLISTS') && has('READ_TRACKS'),
    can_target: has('CREATE_PLAYLIST') && has('ADD_TRACKS'),
    can_mirror: canMirror,
    mirror_unavailable_reason: mirrorReason,
    can_remove_tracks: canRemove,
    can_unfollow_playlist: provider.can_unfollow_playlist,
    can_delete_playlist: provider.can_delete_playlist,
    max_add_batch: provider.write_constraints.max_add_batch,
    max_remove_batch: provider.write_constraints.max_remove_batch,
    max_playlist_size: provider.write_constraints.max_playlist_size,
    supports_duplicates: provider.write_constraints.supports_duplicates,
    ordering: provider.write_constraints.ordering,
    description_max_len: provider.write_constraints.description_max_len,
    liked_tracks: { read: has('READ_LIBRARY') },
    saved_albums: { read: has('READ_SAVED_ALBUMS'), write: has('WRITE_SAVED_ALBUMS') },
    followed_artists: { read: has('READ_FOLLOWED_ARTISTS'), write: has('WRITE_FOLLOWED_ARTISTS') },
    pacing: {
      search_quota_cost: provider.pacing.search_quota_cost,
      write_quota_cost: provider.pacing.write_quota_cost,
      daily_quota: provider.pacing.daily_quota,
    },
    warning: provider.warning,
    demo: false,
    connectable: true,
    connect_unavailable_reason: null,
  };
}
