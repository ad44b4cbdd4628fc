import {
  completeManifest,
  createSignature,
  generateKeyPair,
  jsonText,
  memoryBundleSource,
  type BundleSource,
  type KeyRecord,
  type SecretKeyFile,
  type TrustStore,
  trustKey,
  emptyTrustStore,
} from '../../../../plugin-sdk/src/tools/index.ts';

/** In-memory bundles and keys for the signing tests: no disk, every step real. */

export function manifestSource(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    manifest_version: 1,
    id: 'com.example.demo',
    name: 'Demo',
    version: '1.0.0',
    kind: 'provider',
    publisher: { name: 'Example Ltd', key_id: 'example-2026' },
    engines: { opl: '>=0.1.0' },
    provider: {
      name: 'demo',
      display_name: 'Demo',
      capabilities: ['READ_PLAYLISTS', 'READ_TRACKS'],
      attributes: { has_isrc: true, official: false },
      write_constraints: {},
      auth: [{ kind: 'LONG_LIVED_TOKEN' }],
    },
    network: [{ origin: 'https://api.example.com', path_prefix: '/v1/', methods: ['GET'], reason: 'read playlists' }],
    ...overrides,
  };
}

export const PLUGIN_JS = 'export default {mark:"opl.plugin/v1",kind:"provider",operations:{}};\n';

export function key(keyId = 'example-2026', options: { testOnly?: boolean; publisher?: string } = {}): { secret: SecretKeyFile; record: KeyRecord } {
  return generateKeyPair({ keyId, publisher: options.publisher ?? 'Example Ltd', testOnly: options.testOnly ?? false, createdAt: new Date('2026-01-01T00:00:00Z') });
}

export function trusting(...records: KeyRecord[]): TrustStore {
  return records.reduce((store, record) => trustKey(store, record, { addedAt: new Date('2026-01-02T00:00:00Z') }), emptyTrustStore());
}

export interface BundleFiles {
  files: Record<string, Uint8Array | string>;
  manifestJson: Record<string, unknown>;
}

/** A bundle's files: manifest.json (pretty, as the SDK writes it), the listed files and, with a key, signature.json. */
export function bundleFiles(options: { secret?: SecretKeyFile | null; source?: Record<string, unknown>; extra?: Record<string, string> } = {}): BundleFiles {
  const payload: Record<string, Uint8Array | string> = { 'plugin.js': PLUGIN_JS, 'README.md': '# Demo\n', ...options.extra };
  const encoded = new Map(Object.entries(payload).map(([path, content]) => [path, typeof content === 'string' ? new TextEncoder().encode(content) : content]));
  const manifest = completeManifest(options.source ?? manifestSource(), encoded);
  const manifestJson = JSON.parse(JSON.stringify(manifest)) as Record<string, unknown>;
  const files: Record<string, Uint8Array | string> = { ...payload, 'manifest.json': jsonText(manifestJson) };
  if (options.secret) {
    const signature = createSignature({ manifestJson, id: manifest.id, version: manifest.version, secret: options.secret, signedAt: new Date('2026-02-01T00:00:00Z') });
    files['signature.json'] = jsonText(signature);
  }
  return { files, manifestJson };
}

export function source(files: Record<string, Uint8Array | string>): BundleSource {
  return memoryBundleSource(files, 'test bundle');
}

export function registryOf(...records: KeyRecord[]): { readKeyRecord(keyId: string): Promise<KeyRecord | null> } {
  const byId = new Map(records.map((record) => [record.key_id, record]));
  return { readKeyRecord: async (keyId) => byId.get(keyId) ?? null };
}
