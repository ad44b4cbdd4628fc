/**
 * How CLI commands talk to the world, injected so the engine's `opl plugin …` and tests can run
 * them in-process. Commands never touch process.stdout/exit themselves.
 */
export interface PluginCliIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  /** Relative paths in arguments resolve against this directory. */
  readonly cwd: string;
}

/** A command: parsed argv after the command name in, exit code out. */
export type PluginCliCommand = (args: readonly string[], io: PluginCliIo) => Promise<number>;

export const EXIT_OK = 0;
/** Refused (verification) or failed (anything a person must fix). */
export const EXIT_FAILED = 1;
/** Bad invocation (BSD sysexits EX_USAGE). */
export const EXIT_USAGE = 64;

/** Wrong arguments: printed with the command's usage, exit 64. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export function processIo(): PluginCliIo {
  return { stdout: process.stdout, stderr: process.stderr, cwd: process.cwd() };
}
