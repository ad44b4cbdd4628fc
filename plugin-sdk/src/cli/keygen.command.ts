import { generateKeyPair, writeKeyPairFiles } from '../tools/index.ts';
import { flag, parseCommandArgs, pathFrom, requiredOption } from './cli-args.ts';
import { EXIT_OK, type PluginCliIo } from './cli-io.ts';

export const KEYGEN_USAGE = 'opl-plugin keygen --key-id <id> --publisher <name> --out <secret.json> [--test-only]';

/** Generates a publisher key pair: the secret key (mode 0600) and `<name>.pub.json` beside it. */
export async function keygenCommand(args: readonly string[], io: PluginCliIo): Promise<number> {
  const parsed = parseCommandArgs(args, { 'key-id': { type: 'string' }, publisher: { type: 'string' }, out: { type: 'string' }, 'test-only': { type: 'boolean' } }, 0);
  const { secret, record } = generateKeyPair({ keyId: requiredOption(parsed, 'key-id'), publisher: requiredOption(parsed, 'publisher'), testOnly: flag(parsed, 'test-only') });
  const paths = await writeKeyPairFiles(pathFrom(io.cwd, requiredOption(parsed, 'out')), secret, record);
  io.stdout.write(
    `Generated ${secret.test_only ? 'TEST-ONLY ' : ''}key "${secret.key_id}" for ${secret.publisher}.\n` +
      `  secret key: ${paths.secretPath} (mode 0600 — keep it private and out of version control)\n` +
      `  public key: ${paths.publicPath}\n` +
      `Set "publisher": {"name": ${JSON.stringify(secret.publisher)}, "key_id": "${secret.key_id}"} in plugin.json, and let an engine trust the key with:\n` +
      `  opl-plugin trust add ${paths.publicPath} --trust <trust.json>\n`,
  );
  return EXIT_OK;
}
