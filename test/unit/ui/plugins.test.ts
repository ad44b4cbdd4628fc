import { describe, expect, it } from 'vitest';
import { REFUSAL_REASONS as SDK_REFUSAL_REASONS } from '../../../plugin-sdk/src/tools/refusal.ts';
import { canAllow, canRelease, checkDraft, draftForRefused, EMPTY_DRAFT } from '../../../ui/src/api/allow-list.ts';
import { describeRefusal, isRefusalReason, refusalLabel, REFUSAL_REASONS } from '../../../ui/src/api/plugin-refusals.ts';
import {
  allowListEntryPath,
  describeGrant,
  describeRegistrySource,
  parseAllowListEntry,
  parsePluginsOverview,
  pluginKey,
  pluginKindLabel,
  releasePath,
  type RefusedPlugin,
} from '../../../ui/src/api/plugins.ts';
import { formatTimestamp } from '../../../ui/src/api/timestamp.ts';
import { authorizationHeaders, needsAdminToken } from '../../../ui/src/api/admin-token.ts';

const entry = {
  id: 'a1b2',
  plugin_id: 'com.example.tunes',
  key_id: 'example-2025',
  version_range: '^1.2.0',
  added_by: 'local',
  created_at: '2025-03-04T05:06:07.000Z',
};

const overview = {
  mode: 'hosted',
  allow_unsigned: false,
  registry: { source: 'directory', location: '/srv/opl/registry' },
  loaded: [
    {
      id: 'com.example.tunes',
      name: 'Example Tunes',
      version: '1.2.3',
      kind: 'provider',
      publisher: { name: 'Example Ltd', key_id: 'example-2025' },
      signed: true,
      capabilities: ['read_playlists', 'write_playlists'],
      network: [{ origin: 'https://api.example.com', path_prefix: '/v1/', methods: ['GET', 'POST'], reason: 'The Example Tunes Web API.' }],
    },
  ],
  refused: [
    { id: 'com.example.broken', version: '0.9.0', reason: 'modified_file', detail: 'plugin.js does not match its sha256.' },
    { id: 'com.example.unreadable', version: null, reason: 'unreadable', detail: 'manifest.json is not JSON.' },
  ],
  allow_list: [entry],
};

const refused = (reason: string, version: string | null = '2.0.1', keyId: string | null = null): RefusedPlugin => ({
  id: 'com.example.tunes',
  version,
  reason,
  detail: '',
  keyId,
});

describe('GET /api/admin/plugins', () => {
  it('parses the documented shape into camelCase', () => {
    expect(parsePluginsOverview(overview)).toEqual({
      mode: 'hosted',
      allowUnsigned: false,
      registry: { source: 'directory', location: '/srv/opl/registry', error: null },
      refreshedAt: null,
      loaded: [
        {
          id: 'com.example.tunes',
          name: 'Example Tunes',
          version: '1.2.3',
          kind: 'provider',
          publisher: { name: 'Example Ltd', keyId: 'example-2025' },
          signed: true,
          testOnlyKey: false,
          capabilities: ['read_playlists', 'write_playlists'],
          network: [{ origin: 'https://api.example.com', pathPrefix: '/v1/', methods: ['GET', 'POST'], reason: 'The Example Tunes Web API.' }],
        },
      ],
      refused: [
        { id: 'com.example.broken', version: '0.9.0', reason: 'modified_file', detail: 'plugin.js does not match its sha256.', keyId: null },
        { id: 'com.example.unreadable', version: null, reason: 'unreadable', detail: 'manifest.json is not JSON.', keyId: null },
      ],
      allowList: [
        {
          id: 'a1b2',
          pluginId: 'com.example.tunes',
          keyId: 'example-2025',
          versionRange: '^1.2.0',
          addedBy: 'local',
          createdAt: '2025-03-04T05:06:07.000Z',
        },
      ],
    });
  });

  it('reads the fields newer engines add: registry error, last read, test-only keys, refused key ids', () => {
    const parsed = parsePluginsOverview({
      ...overview,
      registry: { ...overview.registry, error: 'index.json: not found' },
      refreshed_at: '2025-03-04T05:06:07.000Z',
      loaded: [{ ...overview.loaded[0], test_only_key: true }],
      refused: [{ ...overview.refused[0], key_id: 'example-2025' }],
    });
    expect(parsed?.registry.error).toBe('index.json: not found');
    expect(parsed?.refreshedAt).toBe('2025-03-04T05:06:07.000Z');
    expect(parsed?.loaded[0]?.testOnlyKey).toBe(true);
    expect(parsed?.refused[0]?.keyId).toBe('example-2025');
    expect(parsePluginsOverview({ ...overview, refreshed_at: 5 })).toBeUndefined();
    expect(parsePluginsOverview({ ...overview, registry: { ...overview.registry, error: false } })).toBeUndefined();
    expect(parsePluginsOverview({ ...overview, loaded: [{ ...overview.loaded[0], test_only_key: 'no' }] })).toBeUndefined();
    expect(parsePluginsOverview({ ...overview, refused: [{ ...overview.refused[0], key_id: 3 }] })).toBeUndefined();
  });

  it('accepts empty lists and reason codes it does not know yet', () => {
    const parsed = parsePluginsOverview({ ...overview, loaded: [], allow_list: [], refused: [{ id: 'x.y', version: '1.0.0', reason: 'new_reason', detail: '' }] });
    expect(parsed?.loaded).toEqual([]);
    expect(parsed?.refused[0]?.reason).toBe('new_reason');
  });

  it('rejects anything that is not the documented shape', () => {
    const [plugin] = overview.loaded;
    expect(parsePluginsOverview(null)).toBeUndefined();
    expect(parsePluginsOverview([])).toBeUndefined();
    expect(parsePluginsOverview({ ...overview, mode: 'cloud' })).toBeUndefined();
    expect(parsePluginsOverview({ ...overview, allow_unsigned: 'no' })).toBeUndefined();
    expect(parsePluginsOverview({ ...overview, registry: { source: 'directory' } })).toBeUndefined();
    expect(parsePluginsOverview({ ...overview, loaded: undefined })).toBeUndefined();
    expect(parsePluginsOverview({ ...overview, loaded: [{ ...plugin, signed: 'yes' }] })).toBeUndefined();
    expect(parsePluginsOverview({ ...overview, loaded: [{ ...plugin, publisher: { name: 'Example Ltd' } }] })).toBeUndefined();
    expect(parsePluginsOverview({ ...overview, loaded: [{ ...plugin, capabilities: [1] }] })).toBeUndefined();
    expect(parsePluginsOverview({ ...overview, loaded: [{ ...plugin, network: [{ origin: 'https://a.test', methods: ['GET'], reason: '' }] }] })).toBeUndefined();
    expect(parsePluginsOverview({ ...overview, refused: [{ id: 'x.y', version: 1, reason: 'unsigned', detail: '' }] })).toBeUndefined();
    expect(parsePluginsOverview({ ...overview, allow_list: [{ ...entry, key_id: null }] })).toBeUndefined();
  });

  it('parses the entry answered by POST /api/admin/plugins/allow-list', () => {
    expect(parseAllowListEntry(entry)?.versionRange).toBe('^1.2.0');
    expect(parseAllowListEntry({ ...entry, id: 7 })).toBeUndefined();
  });
});

describe('refusal reasons', () => {
  it('knows every code the engine sends: the SDK list itself, imported at build time', () => {
    // One list: the UI's codes are the SDK's, not a copy kept in step (here or anywhere).
    expect(REFUSAL_REASONS).toBe(SDK_REFUSAL_REASONS);
    for (const code of SDK_REFUSAL_REASONS) expect(isRefusalReason(code), code).toBe(true);
    expect(isRefusalReason('not_a_known_code')).toBe(false);
  });

  it('gives every code its own label and its own advice, not the fallback for unknown codes', () => {
    const fallback = describeRefusal('not_a_known_code').advice;
    expect(new Set(SDK_REFUSAL_REASONS.map(refusalLabel)).size).toBe(SDK_REFUSAL_REASONS.length);
    expect(new Set(SDK_REFUSAL_REASONS.map((code) => describeRefusal(code).advice)).size).toBe(SDK_REFUSAL_REASONS.length);
    for (const code of SDK_REFUSAL_REASONS) {
      const { label, advice } = describeRefusal(code);
      expect(label, code).not.toContain('_');
      expect(advice, code).not.toBe(fallback);
    }
  });

  it('says what matters for the codes an administrator acts on', () => {
    expect(refusalLabel('not_allow_listed')).toBe('Not on the allow-list');
    expect(refusalLabel('quarantined')).toMatch(/^Quarantined/);
    expect(refusalLabel('revoked_key')).toMatch(/revoked key/);
    expect(describeRefusal('unsigned').advice).toContain('OPL_PLUGIN_ALLOW_UNSIGNED');
  });

  it('makes an unknown code readable instead of hiding it', () => {
    expect(isRefusalReason('cosmic_ray')).toBe(false);
    expect(refusalLabel('cosmic_ray')).toBe('Cosmic ray');
    expect(refusalLabel('__')).toBe('Refused');
    expect(isRefusalReason('toString')).toBe(false);
  });
});

describe('allow-list form', () => {
  it('asks for every empty field, in form order', () => {
    const check = checkDraft(EMPTY_DRAFT);
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.firstInvalid).toBe('pluginId');
    expect(Object.keys(check.errors)).toEqual(['pluginId', 'keyId', 'versionRange']);

    const onlyKeyMissing = checkDraft({ pluginId: 'com.example.tunes', keyId: '   ', versionRange: '^1.0.0' });
    expect(onlyKeyMissing).toMatchObject({ ok: false, firstInvalid: 'keyId' });
    if (!onlyKeyMissing.ok) expect(onlyKeyMissing.errors.keyId).toMatch(/key/);
  });

  it('sends trimmed snake_case fields', () => {
    expect(checkDraft({ pluginId: ' com.example.tunes ', keyId: 'example-2025\n', versionRange: ' >=1.0.0 <2.0.0 ' })).toEqual({
      ok: true,
      body: { plugin_id: 'com.example.tunes', key_id: 'example-2025', version_range: '>=1.0.0 <2.0.0' },
    });
  });

  it('prefills a refused plugin with its id and a caret range, and the key only from the key_id field', () => {
    expect(draftForRefused(refused('not_allow_listed'))).toEqual({ pluginId: 'com.example.tunes', keyId: '', versionRange: '^2.0.1' });
    expect(draftForRefused(refused('not_allow_listed', '2.0.1', 'example-2025')).keyId).toBe('example-2025');
    // A key id in the prose detail is never picked up.
    expect(draftForRefused({ ...refused('not_allow_listed'), detail: 'key example-2025 is not on the allow-list' }).keyId).toBe('');
    expect(draftForRefused(refused('not_allow_listed', '1.0.0-beta.2')).versionRange).toBe('^1.0.0-beta.2');
    expect(draftForRefused(refused('not_allow_listed', null)).versionRange).toBe('');
  });

  it('offers Allow only for not_allow_listed and Release only for quarantined', () => {
    for (const code of REFUSAL_REASONS) {
      expect(canAllow(refused(code)), code).toBe(code === 'not_allow_listed');
      expect(canRelease(refused(code)), code).toBe(code === 'quarantined');
    }
  });
});

describe('formatting', () => {
  it('writes a network grant as methods and URL prefix', () => {
    expect(describeGrant({ origin: 'https://api.example.com', pathPrefix: '/v1/', methods: ['get', 'POST'], reason: '' })).toBe(
      'GET, POST https://api.example.com/v1/',
    );
  });

  it('names registry sources and plugin kinds', () => {
    expect(describeRegistrySource('directory')).toBe('Local directory');
    expect(describeRegistrySource('https')).toBe('HTTPS registry');
    expect(describeRegistrySource('ipfs')).toBe('ipfs');
    expect(pluginKindLabel('provider')).toBe('Provider');
    expect(pluginKindLabel('format')).toBe('File format');
    expect(pluginKindLabel('theme')).toBe('theme');
  });

  it('escapes ids in action paths', () => {
    expect(releasePath('com.example.tunes')).toBe('/api/admin/plugins/com.example.tunes/release');
    expect(releasePath('../reload')).toBe('/api/admin/plugins/..%2Freload/release');
    expect(allowListEntryPath('a b/c')).toBe('/api/admin/plugins/allow-list/a%20b%2Fc');
  });

  it('keys a plugin by id and version', () => {
    expect(pluginKey({ id: 'com.example.tunes', version: '1.2.3' })).toBe('com.example.tunes@1.2.3');
    expect(pluginKey({ id: 'com.example.tunes', version: null })).toBe('com.example.tunes@');
  });

  it('formats timestamps, and shows a value it cannot read as it came', () => {
    const utc = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
    expect(formatTimestamp('2025-03-04T05:06:07.000Z', utc)).toBe('4 Mar 2025, 05:06');
    expect(formatTimestamp('yesterday', utc)).toBe('yesterday');
  });
});

describe('hosted admin token', () => {
  it('is sent as a bearer token, and not at all when there is none', () => {
    expect(authorizationHeaders(' s3cret ')).toEqual({ authorization: 'Bearer s3cret' });
    expect(authorizationHeaders(undefined)).toEqual({});
    expect(authorizationHeaders('  ')).toEqual({});
  });

  it('is asked for only when the engine says a token is required', () => {
    expect(needsAdminToken({ title: 'Admin token required', status: 401, code: 'admin_token_required' })).toBe(true);
    expect(needsAdminToken({ title: 'Owner session required', status: 401, code: 'session_required' })).toBe(false);
    expect(needsAdminToken({ title: 'Admin access is not configured', status: 403, code: 'admin_not_configured' })).toBe(false);
  });
});
