import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { manifestSchema, manifestSourceSchema, type OrganizerSection } from '../../../plugin-sdk/src/schemas.ts';

/**
 * The organizer section of the first-party manifests follows the spec's provider table exactly,
 * and a manifest cannot promise an organizer action its operations cannot carry out.
 */

function firstParty(name: string) {
  return manifestSourceSchema.parse(JSON.parse(readFileSync(new URL(`../../../plugins/providers/${name}/plugin.json`, import.meta.url), 'utf8')));
}

function organizer(name: string): OrganizerSection {
  return firstParty(name).provider!.organizer;
}

describe('the organizer section of the first-party manifests', () => {
  it('official provider A (Spotify): safe removal, no permanent delete, songs by URI + positions + snapshot, at most 100, owned or collaborative', () => {
    const section = organizer('spotify');
    expect(section.safe_removal.available).toBe(true);
    expect(section.permanent_delete).toMatchObject({ available: false });
    expect(section.remove_songs).toMatchObject({ available: true, identify_by: 'uri_positions_snapshot', removes_every_occurrence: true, max_entries_per_job: 100, applies_to: ['owned', 'collaborative'] });
  });

  it('the unofficial video-music provider (YouTube Music): no safe removal, delete on a live owned=true read, songs by setVideoId on owned playlists', () => {
    const section = organizer('ytmusic');
    expect(section.safe_removal).toMatchObject({ available: false });
    expect(section.permanent_delete).toMatchObject({ available: true, ownership_check: 'live_read' });
    expect(section.remove_songs).toMatchObject({ available: true, identify_by: 'entry_id', removes_every_occurrence: false, applies_to: ['owned'] });
  });

  it('official provider B (TIDAL): delete from the owner-filtered listing only; no song removal although the plugin declares REMOVE_TRACKS, with the reason', () => {
    const manifest = firstParty('tidal');
    expect(manifest.provider!.capabilities).toContain('REMOVE_TRACKS');
    const section = manifest.provider!.organizer;
    expect(section.safe_removal).toMatchObject({ available: false });
    expect(section.permanent_delete).toMatchObject({ available: true, ownership_check: 'owner_filtered_listing' });
    expect(section.remove_songs.available).toBe(false);
    expect(section.remove_songs.available === false && section.remove_songs.reason).toMatch(/provider table/);
  });

  it('the catalog provider with a user token (Apple Music): nothing', () => {
    const section = organizer('applemusic');
    expect([section.safe_removal.available, section.permanent_delete.available, section.remove_songs.available]).toEqual([false, false, false]);
  });

  it('Deezer and YouTube declare what their APIs allow', () => {
    expect(organizer('deezer')).toMatchObject({ safe_removal: { available: true, applies_to: ['followed'] }, permanent_delete: { available: true, ownership_check: 'live_read' }, remove_songs: { available: true, identify_by: 'uri' } });
    expect(organizer('youtube')).toMatchObject({ safe_removal: { available: false }, permanent_delete: { available: true, ownership_check: 'owner_filtered_listing' }, remove_songs: { available: true, identify_by: 'entry_id' } });
  });
});

describe('organizer consistency checks', () => {
  const files = { 'plugin.js': 'a'.repeat(64) };
  const base = JSON.parse(readFileSync(new URL('../../../plugins/providers/spotify/plugin.json', import.meta.url), 'utf8')) as { provider: Record<string, unknown> };

  function withProvider(change: (provider: Record<string, unknown>) => void) {
    const copy = structuredClone(base);
    change(copy.provider);
    return manifestSchema.safeParse({ ...copy, files });
  }

  it('accepts the shipped manifest', () => {
    expect(withProvider(() => {}).success).toBe(true);
  });

  it('refuses a safe removal without unfollowPlaylist and a deletion without deletePlaylist', () => {
    const noUnfollow = withProvider((provider) => (provider['can_unfollow_playlist'] = false));
    expect(noUnfollow.success).toBe(false);
    expect(JSON.stringify(noUnfollow.error?.issues)).toContain('can_unfollow_playlist');
    const deleting = withProvider((provider) => ((provider['organizer'] as Record<string, unknown>)['permanent_delete'] = { available: true, ownership_check: 'live_read' }));
    expect(deleting.success).toBe(false);
    expect(JSON.stringify(deleting.error?.issues)).toContain('can_delete_playlist');
  });

  it('refuses song removal without REMOVE_TRACKS, and a snapshot-pinned job larger than one request', () => {
    const noRemove = withProvider((provider) => (provider['capabilities'] = (provider['capabilities'] as string[]).filter((capability) => capability !== 'REMOVE_TRACKS')));
    expect(JSON.stringify(noRemove.error?.issues)).toContain('REMOVE_TRACKS');
    const tooMany = withProvider((provider) => ((provider['write_constraints'] as Record<string, unknown>)['max_remove_batch'] = 50));
    expect(JSON.stringify(tooMany.error?.issues)).toContain('max_remove_batch');
  });

  it('refuses more than 100 entries per job and an unknown ownership check', () => {
    const many = withProvider((provider) => (((provider['organizer'] as Record<string, Record<string, unknown>>)['remove_songs']!)['max_entries_per_job'] = 101));
    expect(many.success).toBe(false);
    const unknown = withProvider((provider) => {
      provider['can_delete_playlist'] = true;
      (provider['organizer'] as Record<string, unknown>)['permanent_delete'] = { available: true, ownership_check: 'trust_me' };
    });
    expect(unknown.success).toBe(false);
  });

  it('gives a provider that says nothing no organizer action', () => {
    const silent = withProvider((provider) => delete provider['organizer']);
    expect(silent.success).toBe(true);
    expect(silent.data?.provider?.organizer.remove_songs.available).toBe(false);
  });
});
