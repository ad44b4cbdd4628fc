import { createHash } from 'node:crypto';
import { snapshotRecordSchemas, type SnapshotEntityType } from '@opl/plugin-sdk/schemas';
import { credentialLikeText } from './credential-text.ts';
import { ItemsDigest, type SnapshotItem } from './snapshot-records.ts';
import { shownName, SnapshotVerificationError } from './verification-error.ts';

/** What a collection member turned out to hold, counted from its bytes. */
export interface CollectionFacts {
  readonly itemCount: number;
  readonly payloadBytes: number;
  readonly payloadSha256: string;
  readonly itemsSha256: string;
}

const NEWLINE = 0x0a;
const decoder = new TextDecoder('utf-8', { fatal: true });
// eslint-disable-next-line no-control-regex -- the control characters are what it looks for
const CONTROL_CHARACTER = /[\x00-\x1f]/;

/**
 * Reads a collection member's JSONL as it streams past: one record per `\n`-terminated line, each
 * held alone (under the record cap), checked (text, no credential, a valid record of the
 * collection's entity type), counted and hashed. `onRecord` sees each record in order (a restore
 * reads them this way); verification only counts them.
 */
export async function readCollectionLines(
  member: string,
  entityType: SnapshotEntityType,
  chunks: AsyncIterable<Buffer>,
  recordCap: number,
  onRecord?: (record: SnapshotItem, index: number) => Promise<void> | void,
): Promise<CollectionFacts> {
  const payload = createHash('sha256');
  const items = new ItemsDigest();
  const schema = snapshotRecordSchemas[entityType];
  let payloadBytes = 0;
  let itemCount = 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const fail = (reason: 'binary_member' | 'invalid_record' | 'credential_like_text' | 'record_too_large', message: string) =>
    new SnapshotVerificationError(reason, `Record ${itemCount + 1} of ${shownName(member)}: ${message}`, member);

  const line = async (bytes: Buffer) => {
    if (bytes.length === 0) throw fail('invalid_record', 'an empty line is not a record.');
    let text: string;
    try {
      text = decoder.decode(bytes);
    } catch {
      throw fail('binary_member', 'the member holds bytes that are not UTF-8 text.');
    }
    // JSON text never holds raw control characters (JSON.stringify escapes them): such bytes are
    // binary data. Tested on the decoded text (a native scan; UTF-8 never encodes anything else
    // with bytes below 0x20) rather than byte by byte in JavaScript, the verifier's hottest loop.
    if (CONTROL_CHARACTER.test(text)) throw fail('binary_member', 'the member holds binary data, not JSON lines.');
    const credential = credentialLikeText(text);
    if (credential) throw fail('credential_like_text', `it holds what looks like ${credential}; a snapshot never carries credentials.`);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw fail('invalid_record', 'the line is not JSON.');
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw fail('invalid_record', `not a valid ${entityType} (${issue.path.join('.') || 'record'}: ${issue.message.slice(0, 200)}).`);
    }
    items.add(parsed.data);
    await onRecord?.(parsed.data, itemCount);
    itemCount += 1;
  };

  for await (const chunk of chunks) {
    payload.update(chunk);
    payloadBytes += chunk.length;
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE, start); end >= 0; end = chunk.indexOf(NEWLINE, start)) {
      const piece = chunk.subarray(start, end);
      if (pendingBytes + piece.length > recordCap) throw fail('record_too_large', `the record is longer than ${recordCap} bytes.`);
      await line(pending.length === 0 ? piece : Buffer.concat([...pending, piece]));
      pending = [];
      pendingBytes = 0;
      start = end + 1;
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      pendingBytes += rest.length;
      if (pendingBytes > recordCap) throw fail('record_too_large', `the record is longer than ${recordCap} bytes.`);
      pending.push(Buffer.from(rest));
    }
  }
  if (pendingBytes > 0) throw fail('invalid_record', 'the last record does not end with a newline (the member is cut short).');
  return { itemCount, payloadBytes, payloadSha256: payload.digest('hex'), itemsSha256: items.hex() };
}
