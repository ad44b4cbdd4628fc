import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runPluginCli } from '../../../plugin-sdk/src/cli/index.ts';

export const PLUGIN_CLI = fileURLToPath(new URL('../../../plugin-sdk/src/cli/main.ts', import.meta.url));
export const PLUGIN_BIN = fileURLToPath(new URL('../../../plugin-sdk/bin/opl-plugin.mjs', import.meta.url));

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the real executable (Node 24 type stripping), as a publisher would. */
export function runCliProcess(args: string[], cwd: string, entry = PLUGIN_CLI): Promise<CliRun> {
  const argv = entry === PLUGIN_CLI ? ['--no-node-snapshot', entry, ...args] : [entry, ...args];
  return new Promise((resolve) => {
    execFile(process.execPath, argv, { cwd, timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** Runs the CLI in-process through runPluginCli (what `opl plugin …` does). */
export async function runCli(args: string[], cwd: string): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await runPluginCli(args, { cwd, stdout: { write: (text: string) => (stdout += text) }, stderr: { write: (text: string) => (stderr += text) } });
  return { code, stdout, stderr };
}
