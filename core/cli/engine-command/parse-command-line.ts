import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { engineUrlProblem } from './engine-url.ts';

/**
 * The option parsing the engine commands share: strict flags, no positionals, and `--url` checked
 * as an http(s) address (by `engineUrlOption`, where each command checks it). Every mistake is
 * thrown as the command's own usage error (exit 64), so each command keeps its error class and
 * wording.
 */
export function parseCommandLine<T extends ParseArgsOptionsConfig>(
  args: readonly string[],
  options: T,
  usageError: (message: string) => Error,
): ReturnType<typeof parseArgs<{ args: string[]; strict: true; allowPositionals: false; options: T }>>['values'] {
  try {
    return parseArgs({ args: [...args], strict: true, allowPositionals: false, options }).values;
  } catch (error) {
    throw usageError(error instanceof Error ? error.message : String(error));
  }
}

/** As `parseCommandLine`, for commands that also take positional words (a subcommand, an id, a request). */
export function parseCommandWords<T extends ParseArgsOptionsConfig>(
  args: readonly string[],
  options: T,
  usageError: (message: string) => Error,
): Pick<ReturnType<typeof parseArgs<{ args: string[]; strict: true; allowPositionals: true; options: T }>>, 'values' | 'positionals'> {
  try {
    const { values, positionals } = parseArgs({ args: [...args], strict: true, allowPositionals: true, options });
    return { values, positionals };
  } catch (error) {
    throw usageError(error instanceof Error ? error.message : String(error));
  }
}

/** `--url`: an http(s) address, refused as a usage error rather than later as an engine that cannot be reached. */
export function engineUrlOption(value: string | undefined, usageError: (message: string) => Error): string | null {
  if (value === undefined) return null;
  const problem = engineUrlProblem(value);
  if (problem !== null) throw usageError(problem);
  return value;
}

/** A migration or job id on the command line. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
