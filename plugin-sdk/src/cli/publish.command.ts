import { publishBundle, readKeyRecordFile } from '../tools/index.ts';
import { parseCommandArgs, pathFrom, requiredOption, requiredPositional, stringOption } from './cli-args.ts';
import { EXIT_OK, type PluginCliIo } from './cli-io.ts';

export const PUBLISH_USAGE = 'opl-plugin publish <bundle-dir> --registry <dir> [--key <publisher.pub.json>]';

/** Copies a signed bundle into a registry directory and updates its index (and keys/ the first time). */
export async function publishCommand(args: readonly string[], io: PluginCliIo): Promise<number> {
  const parsed = parseCommandArgs(args, { registry: { type: 'string' }, key: { type: 'string' } }, 1);
  const bundleDir = pathFrom(io.cwd, requiredPositional(parsed, 0, 'The bundle directory'));
  const registryDir = pathFrom(io.cwd, requiredOption(parsed, 'registry'));
  const keyPath = stringOption(parsed, 'key');
  const publicKey = keyPath ? await readKeyRecordFile(pathFrom(io.cwd, keyPath)) : null;
  const result = await publishBundle(bundleDir, registryDir, { publicKey });
  const plugin = `${result.id}@${result.version}`;
  io.stdout.write(
    `${result.published ? `Published ${plugin}` : `${plugin} was already published with identical contents`} in ${registryDir}.\n` +
      `  bundle: ${result.destination}\n` +
      `  versions of ${result.id}: ${result.versions.join(', ')}\n` +
      (result.keyRecord === 'added' ? '  added the publisher key record to keys/\n' : ''),
  );
  return EXIT_OK;
}
