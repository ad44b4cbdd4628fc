import { createLocalRegistrySource, readTrustStore, verifyBundle } from '../tools/index.ts';
import { flag, parseCommandArgs, pathFrom, requiredOption, requiredPositional, stringOption } from './cli-args.ts';
import { EXIT_FAILED, EXIT_OK, type PluginCliIo } from './cli-io.ts';

export const VERIFY_USAGE = 'opl-plugin verify <bundle-dir> --trust <trust.json> [--registry <dir>] [--allow-unsigned] [--json]';

/**
 * Verifies a bundle exactly as the engine does: files, signature, key trust (with the registry's
 * key records for rotation and revocation when --registry is given). Exit 1 with the reason when refused.
 */
export async function verifyCommand(args: readonly string[], io: PluginCliIo): Promise<number> {
  const parsed = parseCommandArgs(args, { trust: { type: 'string' }, registry: { type: 'string' }, 'allow-unsigned': { type: 'boolean' }, json: { type: 'boolean' } }, 1);
  const bundleDir = pathFrom(io.cwd, requiredPositional(parsed, 0, 'The bundle directory'));
  const trust = await readTrustStore(pathFrom(io.cwd, requiredOption(parsed, 'trust')));
  const registryDir = stringOption(parsed, 'registry');
  const result = await verifyBundle(bundleDir, {
    trust,
    registry: registryDir ? createLocalRegistrySource(pathFrom(io.cwd, registryDir)) : null,
    allowUnsigned: flag(parsed, 'allow-unsigned'),
  });
  if (flag(parsed, 'json')) {
    const summary = result.ok
      ? { ok: true, plugin: `${result.manifest.id}@${result.manifest.version}`, signed: result.signed, key_id: result.keyId, test_only_key: result.testOnlyKey, files: [...result.files.keys()] }
      : result;
    io.stdout.write(`${JSON.stringify(summary)}\n`);
    return result.ok ? EXIT_OK : EXIT_FAILED;
  }
  if (!result.ok) {
    io.stderr.write(`REFUSED (${result.reason}): ${result.detail}\n`);
    return EXIT_FAILED;
  }
  const plugin = `${result.manifest.id}@${result.manifest.version}`;
  const how = result.signed ? `signed by ${result.testOnlyKey ? 'TEST-ONLY ' : ''}key "${result.keyId}" (${result.manifest.publisher.name})` : 'UNSIGNED — accepted only because of --allow-unsigned (development)';
  io.stdout.write(`OK ${plugin}: ${how}; ${result.files.size} file${result.files.size === 1 ? '' : 's'} match the manifest.\n`);
  return EXIT_OK;
}
