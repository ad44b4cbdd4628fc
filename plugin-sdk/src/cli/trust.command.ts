import { readKeyRecordFile, readTrustStore, revokeKeyInTrustStore, trustKey, writeTrustStore } from '../tools/index.ts';
import { flag, parseCommandArgs, pathFrom, requiredOption, requiredPositional } from './cli-args.ts';
import { EXIT_OK, type PluginCliIo, UsageError } from './cli-io.ts';

export const TRUST_USAGE = [
  'opl-plugin trust add <publisher.pub.json> --trust <trust.json> [--test-only]',
  'opl-plugin trust revoke <key-id> --reason <text> --trust <trust.json>',
  'opl-plugin trust list --trust <trust.json>',
].join('\n  ');

/** Edits the local trust store (created on first `add`). */
export async function trustCommand(args: readonly string[], io: PluginCliIo): Promise<number> {
  const [action, ...rest] = args;
  switch (action) {
    case 'add': {
      const parsed = parseCommandArgs(rest, { trust: { type: 'string' }, 'test-only': { type: 'boolean' } }, 1);
      const record = await readKeyRecordFile(pathFrom(io.cwd, requiredPositional(parsed, 0, 'The public key file')));
      const trustPath = pathFrom(io.cwd, requiredOption(parsed, 'trust'));
      const store = await readTrustStore(trustPath, { missingOk: true });
      const testOnly = flag(parsed, 'test-only') || record.test_only;
      const next = trustKey(store, record, { testOnly });
      if (next === store) {
        io.stdout.write(`Key "${record.key_id}" is already trusted in ${trustPath}.\n`);
      } else {
        await writeTrustStore(trustPath, next);
        io.stdout.write(`Trusted ${testOnly ? 'TEST-ONLY ' : ''}key "${record.key_id}" (${record.publisher}) in ${trustPath}.\n`);
      }
      return EXIT_OK;
    }
    case 'revoke': {
      const parsed = parseCommandArgs(rest, { trust: { type: 'string' }, reason: { type: 'string' } }, 1);
      const keyId = requiredPositional(parsed, 0, 'The key id');
      const reason = requiredOption(parsed, 'reason');
      const trustPath = pathFrom(io.cwd, requiredOption(parsed, 'trust'));
      const store = await readTrustStore(trustPath, { missingOk: true });
      const next = revokeKeyInTrustStore(store, keyId, reason);
      if (next === store) {
        io.stdout.write(`Key "${keyId}" was already revoked in ${trustPath}.\n`);
      } else {
        await writeTrustStore(trustPath, next);
        io.stdout.write(`Revoked key "${keyId}" in ${trustPath}: plugins it signed, and keys it endorsed, no longer load.\n`);
      }
      return EXIT_OK;
    }
    case 'list': {
      const parsed = parseCommandArgs(rest, { trust: { type: 'string' } }, 0);
      const trustPath = pathFrom(io.cwd, requiredOption(parsed, 'trust'));
      const store = await readTrustStore(trustPath);
      const revoked = new Map(store.revoked.map((entry) => [entry.key_id, entry]));
      for (const key of store.keys) {
        const revocation = revoked.get(key.key_id);
        io.stdout.write(`${key.key_id}\t${key.publisher}${key.test_only ? '\t(test only)' : ''}${revocation ? `\tREVOKED ${revocation.revoked_at}: ${revocation.reason}` : ''}\n`);
      }
      for (const entry of store.revoked.filter((item) => !store.keys.some((key) => key.key_id === item.key_id))) {
        io.stdout.write(`${entry.key_id}\t(not trusted)\tREVOKED ${entry.revoked_at}: ${entry.reason}\n`);
      }
      return EXIT_OK;
    }
    default:
      throw new UsageError(action === undefined ? 'trust needs an action: add, revoke or list.' : `Unknown trust action ${JSON.stringify(action)}: use add, revoke or list.`);
  }
}
