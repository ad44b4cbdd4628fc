// The `opl-plugin` executable (run through bin/opl-plugin.mjs, or directly:
// `node --no-node-snapshot plugin-sdk/src/cli/main.ts <command>` on Node 24).
import { processIo } from './cli-io.ts';
import { runPluginCli } from './run-plugin-cli.ts';

process.exitCode = await runPluginCli(process.argv.slice(2), processIo());
