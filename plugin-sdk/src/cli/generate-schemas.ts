// `npm run schemas` (--write) and `npm run schemas:check` (--check): keeps plugin-sdk/schema/ in
// step with the zod schemas. Run with Node 24: `node plugin-sdk/src/cli/generate-schemas.ts --write`.
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateJsonSchemas } from '../tools/json-schemas.ts';

export const SCHEMA_DIR = fileURLToPath(new URL('../../schema/', import.meta.url));

/** The .json files below `dir` as `/`-separated relative paths (schemas may sit in subfolders such as export/). */
async function schemaFiles(dir: string): Promise<string[]> {
  const names = await readdir(dir, { recursive: true }).catch(() => [] as string[]);
  return names.filter((name) => name.endsWith('.json')).map((name) => name.split(sep).join('/'));
}

/** Files in schema/ that differ from, are missing from, or are not in the generated set. */
export async function schemaDrift(dir = SCHEMA_DIR): Promise<string[]> {
  const generated = generateJsonSchemas();
  const present = await schemaFiles(dir);
  const drift = present.filter((name) => !generated.has(name)).map((name) => `${name} is not generated any more`);
  for (const [name, text] of generated) {
    const current = await readFile(join(dir, name), 'utf8').catch(() => null);
    if (current === null) drift.push(`${name} is missing`);
    else if (current !== text) drift.push(`${name} is out of date`);
  }
  return drift;
}

async function main(mode: string | undefined): Promise<number> {
  if (mode === '--check') {
    const drift = await schemaDrift();
    for (const line of drift) process.stderr.write(`${line}\n`);
    if (drift.length > 0) process.stderr.write('Run `npm run schemas` and commit plugin-sdk/schema/.\n');
    return drift.length === 0 ? 0 : 1;
  }
  if (mode === '--write') {
    await mkdir(SCHEMA_DIR, { recursive: true });
    const generated = generateJsonSchemas();
    for (const name of await schemaFiles(SCHEMA_DIR)) if (!generated.has(name)) await rm(join(SCHEMA_DIR, name));
    for (const [name, text] of generated) {
      await mkdir(dirname(join(SCHEMA_DIR, name)), { recursive: true });
      await writeFile(join(SCHEMA_DIR, name), text);
    }
    process.stdout.write(`Wrote ${generated.size} JSON Schemas to ${SCHEMA_DIR}\n`);
    return 0;
  }
  process.stderr.write('Usage: node plugin-sdk/src/cli/generate-schemas.ts --write | --check\n');
  return 64;
}

if (import.meta.main) process.exitCode = await main(process.argv[2]);
