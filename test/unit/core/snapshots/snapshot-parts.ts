import { createHash } from 'node:crypto';
import { randomUUID } from 'node:crypto';
import { snapshotRecordSchemas, trackSchema, type Track } from '@opl/plugin-sdk/schemas';
import nacl from 'tweetnacl';
import { ItemsDigest, signingKeyId } from '../../../../core/services/snapshots/archive/index.ts';
import type { CraftedEntry } from '../../../support/zip-crafter.ts';

/**
 * The pieces of a valid snapshot archive v1 as plain data — a manifest object and member bytes
 * with checksums computed the way the format defines them — so that a test can break exactly one
 * thing and craft the file with test/support/zip-crafter.ts.
 */

export function track(index: number, overrides: Partial<Track> = {}): Track {
  return trackSchema.parse({
    id: `t${index}`,
    title: `Song ${index}`,
    artist: `Artist ${index % 7}`,
    artists: [`Artist ${index % 7}`],
    album: `Album ${index % 5}`,
    duration_s: 180 + index,
    isrc: `USRC1${String(index).padStart(7, '0')}`,
    provider_uris: { spotify: `spotify:track:${index}` },
    position: index,
    ...overrides,
  });
}

export interface Member {
  name: string;
  data: Buffer;
}

export interface SnapshotParts {
  manifest: Record<string, unknown> & { collections: Record<string, unknown>[]; counts: Record<string, number>; sources: Record<string, unknown>[] };
  members: Member[];
}

/** A collection member's bytes and its manifest entry, its facts computed from the records. */
export function collection(index: number, lines: readonly string[], overrides: Record<string, unknown> = {}): { member: Member; entry: Record<string, unknown> } {
  const name = `collections/${String(index).padStart(4, '0')}.jsonl`;
  const data = Buffer.from(lines.map((line) => `${line}\n`).join(''), 'utf8');
  const digest = new ItemsDigest();
  for (const line of lines) {
    let value: unknown = null;
    try {
      value = JSON.parse(line);
    } catch {
      // a hostile line: the digest covers the valid records only
    }
    const parsed = snapshotRecordSchemas.track.safeParse(value);
    if (parsed.success) digest.add(parsed.data);
  }
  return {
    member: { name, data },
    entry: {
      member: name,
      source_id: 's1',
      kind: 'playlist',
      entity_type: 'track',
      source_collection_id: `p${index}`,
      name: `Playlist ${index}`,
      playlist: null,
      status: 'complete',
      item_count: lines.length,
      payload_bytes: data.length,
      payload_sha256: createHash('sha256').update(data).digest('hex'),
      items_sha256: digest.hex(),
      failure: null,
      ...overrides,
    },
  };
}

export function trackLines(count: number, offset = 0): string[] {
  return Array.from({ length: count }, (_, index) => JSON.stringify(track(offset + index)));
}

export function validParts(collections = 2, tracksEach = 3): SnapshotParts {
  const built = Array.from({ length: collections }, (_, index) => collection(index + 1, trackLines(tracksEach, index * 100)));
  return {
    manifest: {
      $schema: 'https://open-playlist.org/schemas/export/open-playlist-snapshot-manifest-v1.json',
      schema_version: 1,
      snapshot_id: randomUUID(),
      library_id: randomUUID(),
      created_at: '2026-11-29T08:00:00.000Z',
      started_at: '2026-11-29T07:59:00.000Z',
      completed_at: '2026-11-29T08:00:00.000Z',
      sources: [{ source_id: 's1', provider: 'spotify', label: 'Spotify (Alex)' }],
      collections: built.map((item) => item.entry),
      counts: { collections: collections, items: collections * tracksEach, partial_collections: 0, failed_collections: 0 },
      partial_failures: [],
    },
    members: built.map((item) => item.member),
  };
}

/** The manifest's text and its checksum line, as members. */
export function manifestMembers(manifest: unknown, text = `${JSON.stringify(manifest, null, 2)}\n`): Member[] {
  return [
    { name: 'manifest.json', data: Buffer.from(text, 'utf8') },
    { name: 'manifest.sha256', data: Buffer.from(`${createHash('sha256').update(text).digest('hex')}  manifest.json\n`) },
  ];
}

/** The crafted entries of a whole archive: collections first, then the manifest, as the writer orders them. */
export function entriesOf(parts: SnapshotParts): CraftedEntry[] {
  return [...parts.members, ...manifestMembers(parts.manifest)].map((member) => ({ name: member.name, data: member.data }));
}

export interface TestSigningKey {
  publicKey: string;
  keyId: string;
  secretKey: Uint8Array;
}

/** A fresh ed25519 key for a test (never a real instance's key). */
export function testSigningKey(): TestSigningKey {
  const pair = nacl.sign.keyPair();
  const publicKey = Buffer.from(pair.publicKey).toString('base64');
  return { publicKey, keyId: signingKeyId(publicKey), secretKey: pair.secretKey };
}

export interface SignedOptions {
  /** The key the manifest names (default: the signing key). */
  declared?: TestSigningKey;
  /** The key id the manifest names (default: the declared key's). */
  keyId?: string;
  /** The bytes signed instead of the context and the manifest's own bytes. */
  signedBytes?: (manifestText: string) => Uint8Array;
  /** The member text instead of the signature's base64 line. */
  memberText?: (signatureBase64: string) => string;
  /** Leave the signature member out. */
  omitMember?: boolean;
}

/** The entries of a signed archive: the manifest names the key, `manifest.sig` signs its bytes. */
export function signedEntriesOf(parts: SnapshotParts, key: TestSigningKey, options: SignedOptions = {}): CraftedEntry[] {
  const declared = options.declared ?? key;
  parts.manifest['signature'] = { algorithm: 'ed25519', key_id: options.keyId ?? declared.keyId, public_key: declared.publicKey };
  const text = `${JSON.stringify(parts.manifest, null, 2)}\n`;
  const message = options.signedBytes ? options.signedBytes(text) : Buffer.concat([Buffer.from('opl-snapshot-manifest-v1\n'), Buffer.from(text, 'utf8')]);
  const signature = Buffer.from(nacl.sign.detached(message, key.secretKey)).toString('base64');
  const members = [...parts.members, ...manifestMembers(parts.manifest, text)];
  if (!options.omitMember) members.push({ name: 'manifest.sig', data: Buffer.from(options.memberText ? options.memberText(signature) : `${signature}\n`, 'latin1') });
  return members.map((member) => ({ name: member.name, data: member.data }));
}
