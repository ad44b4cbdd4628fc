// `npm run bench`: runs every test/bench/*.bench.ts (each exports `run(): Promise<object>`) and
// prints one JSON document. Run with Node 24 and --no-node-snapshot (isolated-vm).
import { cpus } from 'node:os';
import { readdir } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join } from 'node:path';

const dir = fileURLToPath(new URL('.', import.meta.url));
const only = process.argv.slice(2);
const files = (await readdir(dir)).filter((file) => file.endsWith('.bench.ts') && (only.length === 0 || only.some((name) => file.includes(name)))).sort();

const results: Record<string, unknown> = {};
for (const file of files) {
  const module = (await import(pathToFileURL(join(dir, file)).href)) as { run?: () => Promise<unknown> };
  if (typeof module.run !== 'function') throw new Error(`${file} does not export run()`);
  results[file.replace(/\.bench\.ts$/, '')] = await module.run();
}

process.stdout.write(
  `${JSON.stringify({ node: process.version, platform: `${process.platform}-${process.arch}`, cpus: cpus().length, cpu_model: cpus()[0]?.model ?? null, measured_at: new Date().toISOString(), results }, null, 2)}\n`,
);
