import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { UsageError } from './cli-io.ts';

type OptionSpec = Record<string, { type: 'string' | 'boolean'; short?: string }>;

export interface ParsedArgs {
  positionals: string[];
  values: Record<string, string | boolean | undefined>;
}

/** node:util parseArgs in strict mode, with its errors turned into usage errors. */
export function parseCommandArgs(args: readonly string[], options: OptionSpec, maxPositionals: number): ParsedArgs {
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], options, strict: true, allowPositionals: true });
  } catch (error) {
    throw new UsageError((error as Error).message.replace(/\. To specify a positional argument.*$/s, '.'));
  }
  if (parsed.positionals.length > maxPositionals) throw new UsageError(`Unexpected argument ${JSON.stringify(parsed.positionals[maxPositionals])}.`);
  return { positionals: parsed.positionals, values: parsed.values };
}

export function stringOption(parsed: ParsedArgs, name: string): string | undefined {
  const value = parsed.values[name];
  return typeof value === 'string' ? value : undefined;
}

export function requiredOption(parsed: ParsedArgs, name: string): string {
  const value = stringOption(parsed, name);
  if (value === undefined || value === '') throw new UsageError(`--${name} is required.`);
  return value;
}

export function requiredPositional(parsed: ParsedArgs, index: number, name: string): string {
  const value = parsed.positionals[index];
  if (value === undefined || value === '') throw new UsageError(`${name} is required.`);
  return value;
}

export function flag(parsed: ParsedArgs, name: string): boolean {
  return parsed.values[name] === true;
}

export function pathFrom(cwd: string, path: string): string {
  return resolve(cwd, path);
}
