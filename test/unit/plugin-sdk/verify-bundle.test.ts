import { describe, expect, it } from 'vitest';
import {
  completeManifest,
  createSignature,
  emptyTrustStore,
  endorseKey,
  jsonText,
  memoryBundleSource,
  revokeKeyInTrustStore,
  revokeKeyRecord,
  sha256Hex,
  verifyBundle,
  type VerifyBundleResult,
} from '../../../plugin-sdk/src/tools/index.ts';
import { bundleFiles, key, manifestSource, PLUGIN_JS, registryOf, source, trusting } from './support/signed-bundle.ts';

function refusal(result: VerifyBundleResult): { reason: string; detail: string } {
  if (result.ok) throw new Error('expected a refusal, the bundle was accepted');
  return { reason: result.reason, detail: result.detail };
}

describe('verifyBundle', () => {
  const publisher = key();

  it('accepts an intact bundle signed by a trusted key and returns its verified files', async () => {
    const { files } = bundleFiles({ secret: publisher.secret });
    const result = await verifyBundle(source(files), { trust: trusting(publisher.record) });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.signed).toBe(true);
    expect(result.keyId).toBe('example-2026');
    expect(result.testOnlyKey).toBe(false);
    expect(result.manifest.id).toBe('com.example.demo');
    expect(result.signature?.statement.plugin).toBe('com.example.demo@1.0.0');
    expect([...result.files.keys()]).toEqual(['README.md', 'plugin.js']);
    expect(new TextDecoder().decode(result.files.get('plugin.js'))).toBe(PLUGIN_JS);
  });

  it('refuses a bundle with one byte of a file changed', async () => {
    const { files } = bundleFiles({ secret: publisher.secret });
    files['plugin.js'] = PLUGIN_JS.replace('provider', 'pRovider');
    const { reason, detail } = refusal(await verifyBundle(source(files), { trust: trusting(publisher.record) }));
    expect(reason).toBe('modified_file');
    expect(detail).toMatch(/^plugin\.js was modified after the bundle was built: its sha256 is [0-9a-f]{64}, the manifest says [0-9a-f]{64}\.$/);
  });

  it('refuses a bundle with a file its manifest does not list', async () => {
    const { files } = bundleFiles({ secret: publisher.secret });
    files['extra.js'] = 'globalThis.evil = true;';
    const { reason, detail } = refusal(await verifyBundle(source(files), { trust: trusting(publisher.record) }));
    expect(reason).toBe('unlisted_file');
    expect(detail).toContain('extra.js');
  });

  it('does not look for unlisted files when the transport cannot list (HTTPS), and still checks listed ones', async () => {
    const { files } = bundleFiles({ secret: publisher.secret });
    files['extra.js'] = 'never fetched';
    const memory = memoryBundleSource(files);
    const https = { location: 'https://registry.example', readFile: memory.readFile, listFiles: async () => null };
    expect((await verifyBundle(https, { trust: trusting(publisher.record) })).ok).toBe(true);
    files['README.md'] = '# changed\n';
    const changed = memoryBundleSource(files);
    expect(refusal(await verifyBundle({ ...https, readFile: changed.readFile }, { trust: trusting(publisher.record) })).reason).toBe('modified_file');
  });

  it('refuses a bundle with a listed file missing', async () => {
    const { files } = bundleFiles({ secret: publisher.secret });
    delete files['README.md'];
    const { reason, detail } = refusal(await verifyBundle(source(files), { trust: trusting(publisher.record) }));
    expect(reason).toBe('missing_file');
    expect(detail).toBe('README.md is listed in the manifest but missing from the bundle.');
  });

  it('refuses a manifest edited after signing, even when the file hashes still match', async () => {
    const { files, manifestJson } = bundleFiles({ secret: publisher.secret });
    files['manifest.json'] = jsonText({ ...manifestJson, network: [{ origin: 'https://evil.test', path_prefix: '/', methods: ['POST'], reason: 'exfiltrate' }] });
    const { reason, detail } = refusal(await verifyBundle(source(files), { trust: trusting(publisher.record) }));
    expect(reason).toBe('modified_file');
    expect(detail).toContain('manifest.json of com.example.demo@1.0.0 was changed after it was signed');
  });

  it('accepts a manifest whose whitespace and key order changed, since the canonical bytes are what is signed', async () => {
    const { files, manifestJson } = bundleFiles({ secret: publisher.secret });
    const reordered = Object.fromEntries(Object.entries(manifestJson).reverse());
    files['manifest.json'] = JSON.stringify(reordered);
    expect((await verifyBundle(source(files), { trust: trusting(publisher.record) })).ok).toBe(true);
  });

  it('refuses a bundle signed by a different key that claims the trusted key id', async () => {
    const impostor = key('example-2026');
    const { files } = bundleFiles({ secret: impostor.secret });
    const { reason, detail } = refusal(await verifyBundle(source(files), { trust: trusting(publisher.record) }));
    expect(reason).toBe('bad_signature');
    expect(detail).toContain('does not verify with key "example-2026"');
  });

  it('refuses a bundle signed by a key other than the one its manifest names', async () => {
    const other = key('other-key');
    const { files } = bundleFiles({ secret: other.secret });
    const { reason, detail } = refusal(await verifyBundle(source(files), { trust: trusting(publisher.record, other.record) }));
    expect(reason).toBe('bad_signature');
    expect(detail).toBe('com.example.demo@1.0.0 is signed with key "other-key", but its manifest names publisher key "example-2026".');
  });

  it('refuses a signature made for another version of the plugin', async () => {
    const { files } = bundleFiles({ secret: publisher.secret });
    const next = bundleFiles({ secret: null, source: manifestSource({ version: '1.0.1' }) });
    next.files['signature.json'] = files['signature.json']!;
    const { reason, detail } = refusal(await verifyBundle(source(next.files), { trust: trusting(publisher.record) }));
    expect(reason).toBe('bad_signature');
    expect(detail).toBe('signature.json was made for com.example.demo@1.0.0, but the manifest is com.example.demo@1.0.1.');
  });

  it('refuses a malformed or padded signature.json', async () => {
    const { files } = bundleFiles({ secret: publisher.secret });
    const signature = JSON.parse(files['signature.json'] as string) as Record<string, unknown>;
    files['signature.json'] = JSON.stringify({ ...signature, note: 'extra fields are not signed' });
    expect(refusal(await verifyBundle(source(files), { trust: trusting(publisher.record) })).reason).toBe('bad_signature');
    files['signature.json'] = '{not json';
    const { reason, detail } = refusal(await verifyBundle(source(files), { trust: trusting(publisher.record) }));
    expect(reason).toBe('bad_signature');
    expect(detail).toContain('malformed');
  });

  it('refuses a key that is neither trusted nor endorsed', async () => {
    const { files } = bundleFiles({ secret: publisher.secret });
    const { reason, detail } = refusal(await verifyBundle(source(files), { trust: emptyTrustStore(), registry: registryOf(publisher.record) }));
    expect(reason).toBe('unknown_key');
    expect(detail).toContain('Key "example-2026" of publisher "Example Ltd" is in the registry but not in the trust store');
    expect(refusal(await verifyBundle(source(files), { trust: emptyTrustStore() })).detail).toContain('is not in the trust store');
  });

  it('refuses a key revoked in the trust store', async () => {
    const { files } = bundleFiles({ secret: publisher.secret });
    const trust = revokeKeyInTrustStore(trusting(publisher.record), 'example-2026', 'laptop stolen', { revokedAt: new Date('2026-03-01T00:00:00Z') });
    const { reason, detail } = refusal(await verifyBundle(source(files), { trust }));
    expect(reason).toBe('revoked_key');
    expect(detail).toContain('Key "example-2026" was revoked in the trust store on 2026-03-01T00:00:00.000Z: laptop stolen');
  });

  it('refuses a trusted key whose registry record says it is revoked', async () => {
    const { files } = bundleFiles({ secret: publisher.secret });
    const revoked = revokeKeyRecord(publisher.record, 'key leaked in CI logs', { revokedAt: new Date('2026-03-02T00:00:00Z') });
    const { reason, detail } = refusal(await verifyBundle(source(files), { trust: trusting(publisher.record), registry: registryOf(revoked) }));
    expect(reason).toBe('revoked_key');
    expect(detail).toContain('was revoked by its publisher on 2026-03-02T00:00:00.000Z: key leaked in CI logs');
  });

  describe('key rotation', () => {
    const old = key('example-2025');
    const next = key('example-2026');

    it('accepts a bundle signed by a new key that the trusted old key endorsed', async () => {
      const endorsed = endorseKey(old.secret, next.record, { endorsedAt: new Date('2026-01-05T00:00:00Z') });
      const { files } = bundleFiles({ secret: next.secret });
      const result = await verifyBundle(source(files), { trust: trusting(old.record), registry: registryOf(endorsed) });
      expect(result.ok).toBe(true);
      if (result.ok) expect(result.keyId).toBe('example-2026');
    });

    it('refuses the new key when the endorsing key is revoked (trust store or registry)', async () => {
      const endorsed = endorseKey(old.secret, next.record);
      const { files } = bundleFiles({ secret: next.secret });
      const locally = revokeKeyInTrustStore(trusting(old.record), 'example-2025', 'compromised');
      const first = refusal(await verifyBundle(source(files), { trust: locally, registry: registryOf(endorsed) }));
      expect(first.reason).toBe('revoked_key');
      expect(first.detail).toContain('Key "example-2026" is endorsed by key "example-2025", which is not usable: Key "example-2025" was revoked in the trust store');
      const inRegistry = registryOf(endorsed, revokeKeyRecord(old.record, 'compromised'));
      expect(refusal(await verifyBundle(source(files), { trust: trusting(old.record), registry: inRegistry })).reason).toBe('revoked_key');
    });

    it('refuses an endorsement forged by a key that is not the trusted one', async () => {
      const forger = key('example-2025');
      const forged = endorseKey(forger.secret, next.record);
      const { files } = bundleFiles({ secret: next.secret });
      const { reason, detail } = refusal(await verifyBundle(source(files), { trust: trusting(old.record), registry: registryOf(forged) }));
      expect(reason).toBe('bad_signature');
      expect(detail).toContain('claims an endorsement by key "example-2025", but that endorsement\'s signature does not verify');
    });

    it('follows a chain of up to five keys and no longer', async () => {
      const keys = ['k-one', 'k-two', 'k-three', 'k-four', 'k-five', 'k-six'].map((id) => key(id));
      const records = keys.map((pair, i) => (i === 0 ? pair.record : endorseKey(keys[i - 1]!.secret, pair.record)));
      const sign = (i: number) => bundleFiles({ secret: keys[i]!.secret, source: manifestSource({ publisher: { name: 'Example Ltd', key_id: keys[i]!.secret.key_id } }) }).files;
      const options = { trust: trusting(keys[0]!.record), registry: registryOf(...records) };
      expect((await verifyBundle(source(sign(4)), options)).ok).toBe(true);
      const tooFar = refusal(await verifyBundle(source(sign(5)), options));
      expect(tooFar.reason).toBe('unknown_key');
      expect(tooFar.detail).toContain('more than 5 endorsements away');
    });

    it('refuses an endorsement cycle without looping', async () => {
      const a = key('cycle-a');
      const b = key('cycle-b');
      const records = [endorseKey(b.secret, a.record), endorseKey(a.secret, b.record)];
      const files = bundleFiles({ secret: a.secret, source: manifestSource({ publisher: { name: 'Example Ltd', key_id: 'cycle-a' } }) }).files;
      const { reason, detail } = refusal(await verifyBundle(source(files), { trust: emptyTrustStore(), registry: registryOf(...records) }));
      expect(reason).toBe('unknown_key');
      expect(detail).toContain('endorsement cycle');
    });
  });

  it('refuses an unsigned bundle unless unsigned bundles are allowed', async () => {
    const { files } = bundleFiles({ secret: null });
    const { reason, detail } = refusal(await verifyBundle(source(files), { trust: emptyTrustStore() }));
    expect(reason).toBe('unsigned');
    expect(detail).toContain('com.example.demo@1.0.0 has no signature.json');
    const allowed = await verifyBundle(source(files), { trust: emptyTrustStore(), allowUnsigned: true });
    expect(allowed.ok).toBe(true);
    if (allowed.ok) expect({ signed: allowed.signed, keyId: allowed.keyId }).toEqual({ signed: false, keyId: null });
  });

  it('still checks files and any present signature when unsigned bundles are allowed', async () => {
    const unsigned = bundleFiles({ secret: null }).files;
    unsigned['plugin.js'] = 'tampered';
    expect(refusal(await verifyBundle(source(unsigned), { trust: emptyTrustStore(), allowUnsigned: true })).reason).toBe('modified_file');
    const signed = bundleFiles({ secret: publisher.secret }).files;
    expect(refusal(await verifyBundle(source(signed), { trust: emptyTrustStore(), allowUnsigned: true })).reason).toBe('unknown_key');
  });

  it('marks bundles signed by a test-only key', async () => {
    const testKey = key('example-2026', { testOnly: true });
    const { files } = bundleFiles({ secret: testKey.secret });
    const result = await verifyBundle(source(files), { trust: trusting(testKey.record) });
    expect(result.ok && result.testOnlyKey).toBe(true);
  });

  it.each(['../escape.js', '/etc/passwd', 'dir/../../x.js', '.hidden.js', 'a\\b.js'])('refuses a manifest listing the unsafe path %s', async (path) => {
    const { manifestJson } = bundleFiles({ secret: null });
    const manifest = { ...manifestJson, files: { ...(manifestJson.files as object), [path]: sha256Hex(new Uint8Array()) } };
    const signature = createSignature({ manifestJson: manifest, id: 'com.example.demo', version: '1.0.0', secret: publisher.secret });
    const files = { 'manifest.json': jsonText(manifest), 'signature.json': jsonText(signature), 'plugin.js': PLUGIN_JS, 'README.md': '# Demo\n' };
    const { reason, detail } = refusal(await verifyBundle(source(files), { trust: trusting(publisher.record) }));
    expect(reason).toBe('invalid_manifest');
    expect(detail).toContain('manifest.json does not match the manifest schema');
  });

  it('refuses a missing or broken manifest', async () => {
    expect(refusal(await verifyBundle(source({ 'plugin.js': PLUGIN_JS }), { trust: emptyTrustStore() }))).toEqual({ reason: 'unreadable', detail: 'There is no manifest.json at test bundle; it is not a plugin bundle.' });
    expect(refusal(await verifyBundle(source({ 'manifest.json': '{"id":' }), { trust: emptyTrustStore() })).reason).toBe('invalid_manifest');
    expect(refusal(await verifyBundle(source({ 'manifest.json': new Uint8Array([0xff, 0xfe]) }), { trust: emptyTrustStore() })).detail).toBe('manifest.json is not valid UTF-8.');
  });

  it('turns a failing transport into an "unreadable" refusal', async () => {
    const { files } = bundleFiles({ secret: publisher.secret });
    const memory = memoryBundleSource(files);
    const flaky = { location: 'flaky', listFiles: memory.listFiles, readFile: async (path: string) => (path === 'plugin.js' ? Promise.reject(new Error('connection reset')) : memory.readFile(path)) };
    expect(refusal(await verifyBundle(flaky, { trust: trusting(publisher.record) }))).toEqual({ reason: 'unreadable', detail: 'Cannot read plugin.js of the bundle at flaky: connection reset' });
  });
});

describe('completeManifest', () => {
  it('pins every file by sha256 and fills in defaults', () => {
    const manifest = completeManifest(manifestSource(), new Map([['plugin.js', new TextEncoder().encode('x')]]));
    expect(manifest.files).toEqual({ 'plugin.js': sha256Hex(new TextEncoder().encode('x')) });
    expect(manifest.limits.max_response_bytes).toBe(8 * 1024 * 1024);
  });

  it('refuses a manifest whose entry file is not in the bundle, with the reason', () => {
    expect(() => completeManifest(manifestSource(), new Map([['index.js', new Uint8Array()]]))).toThrow(/the entry file "plugin.js" is not listed/);
  });

  it('refuses an invalid author manifest with every problem named', () => {
    expect(() => completeManifest(manifestSource({ id: 'Not An Id', version: 'v1' }), new Map())).toThrow(/id: expected a lowercase dotted id.*version: expected a semver version/);
  });
});
