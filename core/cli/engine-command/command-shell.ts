import type { Config } from '../../config/index.ts';
import { EngineClient } from './engine-client.ts';
import { engineUrl } from './engine-url.ts';

/**
 * The shell `opl export` and `opl migrate` share: `--help`, a usage error printed with the usage
 * text (exit 64), and a session with the engine that always logs out at the end. What each command
 * does in between, and its exit codes, stay its own.
 */

export interface CommandIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

export interface CommandLine<Options> {
  /** The word after `opl`, which starts every message the command prints. */
  name: string;
  usage: string;
  parse(args: readonly string[]): Options;
  /** The command's own usage error class. */
  usageError: abstract new (...args: never[]) => Error;
  exit: { ok: number; usage: number };
}

/** The parsed options, or the exit code when the command line already answered (`--help`, a usage error). */
export function readCommandLine<Options>(line: CommandLine<Options>, args: readonly string[], io: CommandIo): { options: Options } | { exit: number } {
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout.write(line.usage);
    return { exit: line.exit.ok };
  }
  try {
    return { options: line.parse(args) };
  } catch (error) {
    if (!(error instanceof line.usageError)) throw error;
    io.stderr.write(`opl ${line.name}: ${error.message}\n\n${line.usage}`);
    return { exit: line.exit.usage };
  }
}

/** Connects (logging in when the gate is on), runs `work`, and logs out whatever happened. */
export async function withEngine<T>(config: Config, url: string | null, io: CommandIo, work: (client: EngineClient) => Promise<T>): Promise<T> {
  const client = await EngineClient.connect(engineUrl(config, url), config.ownerSecret);
  try {
    return await work(client);
  } finally {
    if (!(await client.close())) io.stderr.write('(could not log out of the engine; the owner session expires by itself)\n');
  }
}

/** The problem+json document of a refused raw request; empty when the body is not JSON (the status then says enough). */
export async function problemOf(response: Response): Promise<Record<string, unknown>> {
  const text = await response.text();
  try {
    const json: unknown = JSON.parse(text);
    return typeof json === 'object' && json !== null && !Array.isArray(json) ? (json as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The sentence to print for a refused request: the problem's detail, or the bare status. */
export function problemDetail(problem: Record<string, unknown>, status: number): string {
  return typeof problem['detail'] === 'string' ? problem['detail'] : `the engine answered HTTP ${status}`;
}

export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
