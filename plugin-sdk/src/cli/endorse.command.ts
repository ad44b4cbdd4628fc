import { endorseKey, putRegistryKeyRecord, readKeyRecordFile, readSecretKeyFile, writeKeyRecordFile } from '../tools/index.ts';
import { parseCommandArgs, pathFrom, requiredOption, stringOption } from './cli-args.ts';
import { EXIT_OK, type PluginCliIo } from './cli-io.ts';

export const ENDORSE_USAGE = 'opl-plugin endorse --old <old-secret.json> --new <new.pub.json> [--registry <dir>]';

/**
 * Key rotation: the old key signs the new public key. The endorsement is written into the new
 * key's public file and, with --registry, into the registry's keys/ so engines find it.
 */
export async function endorseCommand(args: readonly string[], io: PluginCliIo): Promise<number> {
  const parsed = parseCommandArgs(args, { old: { type: 'string' }, new: { type: 'string' }, registry: { type: 'string' } }, 0);
  const { key: oldKey, warnings } = await readSecretKeyFile(pathFrom(io.cwd, requiredOption(parsed, 'old')));
  for (const warning of warnings) io.stderr.write(`warning: ${warning}\n`);
  const newPath = pathFrom(io.cwd, requiredOption(parsed, 'new'));
  const endorsed = endorseKey(oldKey, await readKeyRecordFile(newPath));
  await writeKeyRecordFile(newPath, endorsed);
  io.stdout.write(`Key "${oldKey.key_id}" endorsed key "${endorsed.key_id}"; wrote the endorsement into ${newPath}.\n`);
  const registry = stringOption(parsed, 'registry');
  if (registry) {
    const outcome = await putRegistryKeyRecord(pathFrom(io.cwd, registry), endorsed);
    io.stdout.write(`Registry key record of "${endorsed.key_id}": ${outcome}.\n`);
  }
  io.stdout.write(`Engines that trust "${oldKey.key_id}" now accept plugins signed by "${endorsed.key_id}" (while "${oldKey.key_id}" is not revoked).\n`);
  return EXIT_OK;
}
