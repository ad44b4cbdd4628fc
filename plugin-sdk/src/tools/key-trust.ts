import { endorsementIsValid } from './endorsement.ts';
import { type KeyRecord } from './key.schema.ts';
import { type Refusal, refuse } from './refusal.ts';
import { type TrustStore } from './trust-store.schema.ts';

/**
 * Whether a publisher key may sign plugins here. Trust comes only from the local trust store,
 * directly or through a chain of endorsements (key rotation) that starts at a trusted key.
 * Revocation comes from either side: the trust store or the key's own registry record. The
 * registry can therefore take trust away but never grant it.
 */

export const MAX_ENDORSEMENT_CHAIN = 5;

/** Where key records come from (a registry source); null when the key has no record. */
export interface KeyRecordLookup {
  readKeyRecord(keyId: string): Promise<KeyRecord | null>;
}

export interface TrustedKeyResult {
  readonly ok: true;
  readonly keyId: string;
  readonly publisher: string;
  /** base64 ed25519 public key to check signatures with. */
  readonly publicKey: string;
  /** True when the trust root or any key on the chain is a test-only key. */
  readonly testOnly: boolean;
  /** Key ids from the trust-store key down to this one (length 1 when trusted directly). */
  readonly chain: readonly string[];
}

export type KeyTrustRefusal = Refusal<'unknown_key' | 'revoked_key' | 'bad_signature' | 'unreadable'>;
export type KeyTrustResult = TrustedKeyResult | KeyTrustRefusal;

export interface KeyTrustOptions {
  trust: TrustStore;
  registry?: KeyRecordLookup | null;
}

async function lookup(registry: KeyRecordLookup | null | undefined, keyId: string): Promise<KeyRecord | null | KeyTrustRefusal> {
  if (!registry) return null;
  try {
    return await registry.readKeyRecord(keyId);
  } catch (error) {
    return refuse('unreadable', `The registry's record of key "${keyId}" cannot be read: ${(error as Error).message}`);
  }
}

async function resolve(keyId: string, options: KeyTrustOptions, seen: readonly string[]): Promise<KeyTrustResult> {
  const revokedLocally = options.trust.revoked.find((entry) => entry.key_id === keyId);
  if (revokedLocally) return refuse('revoked_key', `Key "${keyId}" was revoked in the trust store on ${revokedLocally.revoked_at}: ${revokedLocally.reason}`);

  const record = await lookup(options.registry, keyId);
  if (record && 'ok' in record) return record;
  if (record?.revoked_at) {
    return refuse('revoked_key', `Key "${keyId}" was revoked by its publisher on ${record.revoked_at}${record.revocation_reason ? `: ${record.revocation_reason}` : '.'}`);
  }

  const trusted = options.trust.keys.find((key) => key.key_id === keyId);
  if (trusted) {
    return { ok: true, keyId, publisher: trusted.publisher, publicKey: trusted.public_key, testOnly: trusted.test_only, chain: [keyId] };
  }

  if (!record) return refuse('unknown_key', `Key "${keyId}" is not in the trust store${options.registry ? ' and the registry has no record of it' : ''}; trust it with \`opl-plugin trust add <key.pub.json>\` if you trust its publisher.`);
  if (!record.endorsement) return refuse('unknown_key', `Key "${keyId}" of publisher "${record.publisher}" is in the registry but not in the trust store, and no trusted key endorses it; trust it with \`opl-plugin trust add\` if you trust its publisher.`);

  const endorser = record.endorsement.key_id;
  if (seen.includes(endorser)) return refuse('unknown_key', `Key "${keyId}" is part of an endorsement cycle (${[...seen, keyId, endorser].join(' → ')}), so no trusted key vouches for it.`);
  if (seen.length + 1 >= MAX_ENDORSEMENT_CHAIN) return refuse('unknown_key', `Key "${keyId}" is more than ${MAX_ENDORSEMENT_CHAIN} endorsements away from a trusted key; trust a newer key directly.`);

  const parent = await resolve(endorser, options, [...seen, keyId]);
  if (!parent.ok) {
    const reason = parent.reason === 'revoked_key' || parent.reason === 'unreadable' ? parent.reason : 'unknown_key';
    return refuse(reason, `Key "${keyId}" is endorsed by key "${endorser}", which is not usable: ${parent.detail}`);
  }
  if (!endorsementIsValid(record, parent.publicKey)) {
    return refuse('bad_signature', `Key "${keyId}" claims an endorsement by key "${endorser}", but that endorsement's signature does not verify.`);
  }
  return { ok: true, keyId, publisher: record.publisher, publicKey: record.public_key, testOnly: parent.testOnly || record.test_only, chain: [...parent.chain, keyId] };
}

/** Decides whether `keyId` is trusted, following endorsements up to five keys deep. */
export function evaluateKeyTrust(keyId: string, options: KeyTrustOptions): Promise<KeyTrustResult> {
  return resolve(keyId, options, []);
}
