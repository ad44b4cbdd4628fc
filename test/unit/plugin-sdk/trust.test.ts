import { describe, expect, it } from 'vitest';
import {
  emptyTrustStore,
  endorseKey,
  endorsementIsValid,
  evaluateKeyTrust,
  PluginToolError,
  revokeKeyInTrustStore,
  revokeKeyRecord,
  secretKeyBytes,
  trustKey,
} from '../../../plugin-sdk/src/tools/index.ts';
import { key, registryOf, trusting } from './support/signed-bundle.ts';

describe('trust store edits', () => {
  const publisher = key();

  it('adds a key once and refuses a different key under the same id', () => {
    const store = trusting(publisher.record);
    expect(trustKey(store, publisher.record)).toBe(store);
    expect(() => trustKey(store, key().record)).toThrow(/already holds a different public key under the id "example-2026"/);
  });

  it('does not trust a record its publisher revoked', () => {
    expect(() => trustKey(emptyTrustStore(), revokeKeyRecord(publisher.record, 'retired'))).toThrow(/was revoked by its publisher/);
  });

  it('records a revocation once, with a reason', () => {
    const store = revokeKeyInTrustStore(trusting(publisher.record), 'example-2026', ' stolen ', { revokedAt: new Date('2026-04-01T00:00:00Z') });
    expect(store.revoked).toEqual([{ key_id: 'example-2026', reason: 'stolen', revoked_at: '2026-04-01T00:00:00.000Z' }]);
    expect(revokeKeyInTrustStore(store, 'example-2026', 'again')).toBe(store);
    expect(() => revokeKeyInTrustStore(store, 'other-key', '  ')).toThrow(PluginToolError);
  });

  it('keeps the first revocation of a registry record', () => {
    const once = revokeKeyRecord(publisher.record, 'first', { revokedAt: new Date('2026-04-01T00:00:00Z') });
    expect(revokeKeyRecord(once, 'second')).toBe(once);
    expect(once).toMatchObject({ revoked_at: '2026-04-01T00:00:00.000Z', revocation_reason: 'first' });
  });
});

describe('endorsements', () => {
  const old = key('example-2025');
  const next = key('example-2026');

  it('are signatures by the old key over the new key id and public key', () => {
    const endorsed = endorseKey(old.secret, next.record, { endorsedAt: new Date('2026-01-05T00:00:00Z') });
    expect(endorsed.endorsement).toMatchObject({ key_id: 'example-2025', endorsed_at: '2026-01-05T00:00:00.000Z' });
    expect(endorsementIsValid(endorsed, old.record.public_key)).toBe(true);
    expect(endorsementIsValid(endorsed, next.record.public_key)).toBe(false);
    expect(endorsementIsValid({ ...endorsed, public_key: key().record.public_key }, old.record.public_key)).toBe(false);
    expect(endorsementIsValid({ ...endorsed, endorsement: { ...endorsed.endorsement!, endorsed_at: '2027-01-01T00:00:00.000Z' } }, old.record.public_key)).toBe(false);
  });

  it('refuse to endorse the same key or a copy of it', () => {
    expect(() => endorseKey(old.secret, old.record)).toThrow(/cannot endorse itself/);
    expect(() => endorseKey(old.secret, { ...old.record, key_id: 'copy-key' })).toThrow(/same public key/);
  });

  it('report the chain from the trusted key and the test-only flag of any key on it', async () => {
    const testRoot = key('root-key', { testOnly: true });
    const endorsed = endorseKey(testRoot.secret, next.record);
    const result = await evaluateKeyTrust('example-2026', { trust: trusting(testRoot.record), registry: registryOf(endorsed) });
    expect(result).toMatchObject({ ok: true, chain: ['root-key', 'example-2026'], testOnly: true, publicKey: next.record.public_key });
  });

  it('turn a registry that cannot be read into an "unreadable" result', async () => {
    const result = await evaluateKeyTrust('example-2026', { trust: emptyTrustStore(), registry: { readKeyRecord: () => Promise.reject(new Error('timeout')) } });
    expect(result).toEqual({ ok: false, reason: 'unreadable', detail: 'The registry\'s record of key "example-2026" cannot be read: timeout' });
  });
});

describe('secret keys', () => {
  it('refuse a file whose secret key does not belong to its public key', () => {
    const a = key('key-a');
    const b = key('key-b');
    expect(secretKeyBytes(a.secret)).toHaveLength(64);
    expect(() => secretKeyBytes({ ...a.secret, public_key: b.secret.public_key })).toThrow(/inconsistent/);
  });
});
