import { manifestSchema } from '@opl/plugin-sdk/schemas';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../core/config/index.ts';
import { isAllowListed } from '../../../core/plugins/plugin-catalogue.service.ts';
import { providerView } from '../../../core/plugins/provider-view.ts';
import { validateAllowListEntry } from '../../../core/services/plugins/allow-list-entry.ts';

function manifest(capabilities: string[], extra: Record<string, unknown> = {}) {
  return manifestSchema.parse({
    manifest_version: 1,
    id: 'com.example.demo',
    name: 'Demo',
    version: '1.0.0',
    kind: 'provider',
    publisher: { name: 'Demo', key_id: 'demo-key' },
    engines: { opl: '>=0.1.0' },
    files: { 'plugin.js': 'a'.repeat(64) },
    provider: { name: 'demo', display_name: 'Demo Music', capabilities, attributes: { has_isrc: true, official: true }, write_constraints: {}, auth: [{ kind: 'OAUTH_PKCE' }], ...extra },
  });
}

const entry = (plugin_id: string, key_id: string, version_range: string) => ({ id: 'e', plugin_id, key_id, version_range, added_by: 'test', created_at: '' });

describe('capability matrix rows', () => {
  it('derives source, target and library support from declared capabilities', () => {
    const view = providerView(manifest(['READ_PLAYLISTS', 'READ_TRACKS', 'CREATE_PLAYLIST', 'ADD_TRACKS', 'READ_SAVED_ALBUMS', 'READ_LIBRARY']), true)!;
    expect(view).toMatchObject({ can_source: true, can_target: true, can_remove_tracks: false, liked_tracks: { read: true }, saved_albums: { read: true, write: false }, followed_artists: { read: false, write: false } });
  });

  it('offers mirror only with the flag and both add and remove, and otherwise says what to do instead', () => {
    expect(providerView(manifest(['ADD_TRACKS', 'REMOVE_TRACKS'], { can_mirror: true }), true)).toMatchObject({ can_mirror: true, mirror_unavailable_reason: null });
    const noRemove = providerView(manifest(['ADD_TRACKS'], { can_mirror: true }), true)!;
    expect(noRemove.can_mirror).toBe(false);
    expect(noRemove.mirror_unavailable_reason).toMatch(/Demo Music cannot remove tracks.*add-only/);
    const declared = providerView(manifest(['ADD_TRACKS'], { mirror_unavailable_reason: 'Reordering is not offered by the API.' }), true)!;
    expect(declared.mirror_unavailable_reason).toBe('Reordering is not offered by the API.');
  });
});

describe('manifest names used as object keys', () => {
  it('refuses a provider, format or quota bucket named like an Object.prototype member', () => {
    const provider = manifestSchema.safeParse({ ...manifest(['READ_TRACKS']), provider: { ...manifest(['READ_TRACKS']).provider, name: 'constructor' } });
    expect(provider.success).toBe(false);
    expect(JSON.stringify(provider.error?.issues)).toMatch(/cannot be a provider name/);
    const bucket = manifestSchema.safeParse({ ...manifest(['READ_TRACKS']), provider: { ...manifest(['READ_TRACKS']).provider, pacing: { quota: { daily_units: 100, buckets: { constructor: { daily_units: 5 } } } } } });
    expect(bucket.success).toBe(false);
    expect(JSON.stringify(bucket.error?.issues)).toMatch(/cannot be a bucket name/);
    const ordinaryBucket = manifestSchema.safeParse({ ...manifest(['READ_TRACKS']), provider: { ...manifest(['READ_TRACKS']).provider, pacing: { quota: { daily_units: 100, buckets: { search: { daily_units: 5 } } } } } });
    expect(ordinaryBucket.success, JSON.stringify(ordinaryBucket.error?.issues)).toBe(true);
    const format = manifestSchema.safeParse({
      manifest_version: 1,
      id: 'com.example.fmt',
      name: 'Fmt',
      version: '1.0.0',
      kind: 'format',
      publisher: { name: 'Demo', key_id: 'demo-key' },
      engines: { opl: '>=0.1.0' },
      files: { 'plugin.js': 'a'.repeat(64) },
      format: { name: 'constructor', display_name: 'Odd', extensions: ['.odd'], media_types: ['text/plain'], directions: ['import'] },
    });
    expect(format.success).toBe(false);
    expect(JSON.stringify(format.error?.issues)).toMatch(/cannot be a format name/);
    // The same manifest under an ordinary name is fine: the rule is about the name only.
    const fine = manifestSchema.safeParse({ ...manifest(['READ_TRACKS']), provider: { ...manifest(['READ_TRACKS']).provider, name: 'constructo' } });
    expect(fine.success).toBe(true);
  });
});

describe('hosted allow-list matching', () => {
  it('needs the same plugin id, the signing key and a range containing the version', () => {
    const list = [entry('com.example.demo', 'demo-key', '^1.2.0')];
    expect(isAllowListed(list, 'com.example.demo', 'demo-key', '1.4.1')).toBe(true);
    expect(isAllowListed(list, 'com.example.demo', 'demo-key', '2.0.0')).toBe(false);
    expect(isAllowListed(list, 'com.example.demo', 'other-key', '1.4.1')).toBe(false);
    expect(isAllowListed(list, 'com.example.demo', null, '1.4.1')).toBe(false);
    expect(isAllowListed(list, 'com.example.demo-evil', 'demo-key', '1.4.1')).toBe(false);
    expect(isAllowListed([entry('com.example.demo', 'demo-key', 'not a range')], 'com.example.demo', 'demo-key', '1.0.0')).toBe(false);
  });

  it('validates entries with reasons', () => {
    expect(validateAllowListEntry({ pluginId: 'com.example.demo', keyId: 'demo-key', versionRange: '>=1.0.0 <2' })).toBeNull();
    expect(validateAllowListEntry({ pluginId: 'Demo', keyId: 'demo-key', versionRange: '*' })).toMatch(/not a plugin id/);
    expect(validateAllowListEntry({ pluginId: 'com.example.demo', keyId: 'Demo Key', versionRange: '*' })).toMatch(/not a key id/);
    expect(validateAllowListEntry({ pluginId: 'com.example.demo', keyId: 'demo-key', versionRange: 'latest' })).toMatch(/not a semver range/);
  });
});

describe('plugin configuration', () => {
  it('refuses the unsigned-plugin development flag in hosted mode', () => {
    expect(() => loadConfig({ OPL_DEPLOYMENT_MODE: 'hosted', OPL_PLUGIN_ALLOW_UNSIGNED: 'true' })).toThrow(/OPL_PLUGIN_ALLOW_UNSIGNED/);
    expect(loadConfig({ OPL_PLUGIN_ALLOW_UNSIGNED: 'yes' }).plugins.allowUnsigned).toBe(true);
    expect(() => loadConfig({ OPL_PLUGIN_ALLOW_UNSIGNED: 'maybe' })).toThrow(/must be true or false/);
  });

  it('uses the installation registry by default and an HTTPS registry when configured', () => {
    expect(loadConfig({}).plugins.registry).toMatchObject({ source: 'directory', location: expect.stringMatching(/registry$/) });
    expect(loadConfig({ OPL_REGISTRY_URL: 'https://plugins.example.org/registry/' }).plugins.registry).toEqual({ source: 'https', location: 'https://plugins.example.org/registry' });
  });

  it('requires a long admin token', () => {
    expect(() => loadConfig({ OPL_ADMIN_TOKEN: 'short' })).toThrow(/OPL_ADMIN_TOKEN/);
  });
});
