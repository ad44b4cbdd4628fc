import { revokeRegistryKey } from '../tools/index.ts';
import { parseCommandArgs, pathFrom, requiredOption, requiredPositional } from './cli-args.ts';
import { EXIT_OK, type PluginCliIo } from './cli-io.ts';

export const REVOKE_USAGE = 'opl-plugin revoke <key-id> --reason <text> --registry <dir>';

/** Publisher-side revocation: marks the key revoked in the registry, which every engine honours. */
export async function revokeCommand(args: readonly string[], io: PluginCliIo): Promise<number> {
  const parsed = parseCommandArgs(args, { reason: { type: 'string' }, registry: { type: 'string' } }, 1);
  const keyId = requiredPositional(parsed, 0, 'The key id');
  const registryDir = pathFrom(io.cwd, requiredOption(parsed, 'registry'));
  const record = await revokeRegistryKey(registryDir, keyId, requiredOption(parsed, 'reason'));
  io.stdout.write(`Key "${keyId}" is revoked in ${registryDir} since ${record.revoked_at}: ${record.revocation_reason ?? ''}\n`);
  return EXIT_OK;
}
