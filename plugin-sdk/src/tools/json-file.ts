import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { PluginToolError } from './tool-error.ts';

/** JSON files the tools own: human-readable (2-space, trailing newline) and replaced atomically. */

export function jsonText(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** Parsed JSON of `path`, or null when the file does not exist. `what` names the file in errors ("The trust store"). */
export async function readJsonFile(path: string, what: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new PluginToolError(`Cannot read ${what.charAt(0).toLowerCase()}${what.slice(1)} ${path}: ${(error as Error).message}.`, { cause: error });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new PluginToolError(`${what} ${path} is not valid JSON: ${(error as Error).message}.`, { cause: error });
  }
}

/** Writes through a temporary file and a rename, so a reader never sees half a document. */
export async function writeJsonFileAtomic(path: string, value: unknown): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(temporary, jsonText(value));
  await rename(temporary, path);
}
