import { readSecretKeyFile, signBundle } from '../tools/index.ts';
import { parseCommandArgs, pathFrom, requiredOption, requiredPositional } from './cli-args.ts';
import { EXIT_OK, type PluginCliIo } from './cli-io.ts';

export const SIGN_USAGE = 'opl-plugin sign <bundle-dir> --key <secret.json>';

/** Signs a built bundle in place (signature.json). */
export async function signCommand(args: readonly string[], io: PluginCliIo): Promise<number> {
  const parsed = parseCommandArgs(args, { key: { type: 'string' } }, 1);
  const bundleDir = pathFrom(io.cwd, requiredPositional(parsed, 0, 'The bundle directory'));
  const { key, warnings } = await readSecretKeyFile(pathFrom(io.cwd, requiredOption(parsed, 'key')));
  for (const warning of warnings) io.stderr.write(`warning: ${warning}\n`);
  const signature = await signBundle(bundleDir, key);
  io.stdout.write(`Signed ${signature.statement.plugin} with ${key.test_only ? 'TEST-ONLY ' : ''}key "${key.key_id}" at ${signature.statement.signed_at}.\n`);
  return EXIT_OK;
}
