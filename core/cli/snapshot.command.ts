import type { Config } from '../config/index.ts';
import { SNAPSHOT_DIFF_USAGE, snapshotDiffCommand } from './snapshot/snapshot-diff.ts';
import { SNAPSHOT_ENGINE_USAGE, snapshotEngineCommand } from './snapshot/snapshot-engine.ts';
import { SNAPSHOT_REWIND_USAGE, snapshotRewindCommand } from './snapshot/snapshot-rewind.ts';
import { SNAPSHOT_VERIFY_USAGE, snapshotVerifyCommand, type SnapshotIo } from './snapshot/snapshot-verify.ts';

export const SNAPSHOT_USAGE = `Usage: opl snapshot <command>

  verify <archive.zip>   verify a library snapshot archive offline (no engine needed)
  list | create | restore | diff | rewind   through a running engine (below)

${SNAPSHOT_VERIFY_USAGE}
${SNAPSHOT_ENGINE_USAGE}
${SNAPSHOT_DIFF_USAGE}
${SNAPSHOT_REWIND_USAGE}`;

/** `opl snapshot …`: library snapshots (core/services/snapshots/README.md). */
export async function snapshotCommand(args: readonly string[], config: Config, io: SnapshotIo = { stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  const [sub, ...rest] = args;
  switch (sub) {
    case 'verify':
      return snapshotVerifyCommand(rest, config.snapshotLimits, io);
    case 'list':
    case 'create':
    case 'restore':
      return snapshotEngineCommand(sub, rest, config, io);
    case 'diff':
      return snapshotDiffCommand(rest, config, io);
    case 'rewind':
      return snapshotRewindCommand(rest, config, io);
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      io.stdout.write(SNAPSHOT_USAGE);
      return sub === undefined ? 64 : 0;
    default:
      io.stderr.write(`opl snapshot: unknown command ${JSON.stringify(sub)}\n\n${SNAPSHOT_USAGE}`);
      return 64;
  }
}
