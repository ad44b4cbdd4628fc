import { mkdir, readdir, rm, rmdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { bundlePathSchema, type Manifest, manifestSchema, manifestSourceSchema } from '../manifest.schema.ts';
import { describeIssues } from './describe-issues.ts';
import { sha256Hex, utf8 } from './encoding.ts';
import { jsonText, readJsonFile } from './json-file.ts';
import { listFilesInside } from './safe-path.ts';
import { PluginToolError } from './tool-error.ts';
import { MANIFEST_FILE, SIGNATURE_FILE } from './verify-bundle.ts';

export interface WriteBundleInput {
  /** The author's manifest (plugin.json): everything but `files`. */
  manifestSource: unknown;
  /** Bundle files by relative path; strings are written as UTF-8. Must include the manifest's entry. */
  files: Readonly<Record<string, Uint8Array | string>>;
  outDir: string;
}

/** Turns the author's manifest and the files into a complete manifest (hashes filled in), without touching disk. */
export function completeManifest(manifestSource: unknown, files: ReadonlyMap<string, Uint8Array>): Manifest {
  const source = manifestSourceSchema.safeParse(manifestSource);
  if (!source.success) throw new PluginToolError(`The manifest (plugin.json) is not valid: ${describeIssues(source.error)}.`, { reason: 'invalid_manifest' });
  const hashes: Record<string, string> = {};
  for (const [path, bytes] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) hashes[path] = sha256Hex(bytes);
  const manifest = manifestSchema.safeParse({ ...source.data, files: hashes });
  if (!manifest.success) throw new PluginToolError(`The bundle's manifest is not valid: ${describeIssues(manifest.error)}.`, { reason: 'invalid_manifest' });
  return manifest.data;
}

/**
 * Clears what a previous build left in `outDir` — only the files its manifest listed, the
 * manifest and the signature — and refuses to write into a directory holding anything else, so a
 * mistyped `--out` never deletes someone's files.
 */
async function prepareOutDir(outDir: string): Promise<void> {
  const previous = await readJsonFile(join(outDir, MANIFEST_FILE), 'The previous manifest');
  const owned = new Set<string>([MANIFEST_FILE, SIGNATURE_FILE]);
  const previousFiles = (previous as { files?: unknown } | null)?.files;
  if (previousFiles && typeof previousFiles === 'object') {
    for (const path of Object.keys(previousFiles)) if (bundlePathSchema.safeParse(path).success) owned.add(path);
  }
  const present = await listFilesInside(outDir);
  const foreign = present.filter((path) => !owned.has(path));
  if (foreign.length > 0) {
    throw new PluginToolError(`${outDir} contains files that are not part of a previous bundle (${foreign.slice(0, 5).join(', ')}${foreign.length > 5 ? ', …' : ''}); choose an empty output directory.`);
  }
  for (const path of present) await rm(join(outDir, ...path.split('/')), { force: true });
  // Remove directories the old bundle left empty, deepest first.
  const dirs = (await readdir(outDir, { recursive: true, withFileTypes: true }).catch(() => []))
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort((a, b) => b.length - a.length);
  for (const dir of dirs) await rmdir(dir).catch(() => undefined); // not empty: leave it
}

/**
 * Writes an unsigned bundle: every file, then manifest.json with each file's sha256. Any old
 * signature is removed, since it cannot cover the new manifest. Returns the complete manifest.
 */
export async function writeBundle(input: WriteBundleInput): Promise<Manifest> {
  const files = new Map<string, Uint8Array>();
  for (const [path, content] of Object.entries(input.files)) {
    if (!bundlePathSchema.safeParse(path).success) throw new PluginToolError(`"${path}" cannot be a bundle file: use a relative path of letters, digits, "_", "-" and ".", without "..", hidden parts or backslashes.`);
    if (path === MANIFEST_FILE || path === SIGNATURE_FILE) throw new PluginToolError(`"${path}" is written by the SDK and cannot be a bundle file.`);
    files.set(path, typeof content === 'string' ? utf8(content) : content);
  }
  const manifest = completeManifest(input.manifestSource, files);
  await mkdir(input.outDir, { recursive: true });
  await prepareOutDir(input.outDir);
  for (const [path, bytes] of files) {
    const target = join(input.outDir, ...path.split('/'));
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, bytes);
  }
  await writeFile(join(input.outDir, MANIFEST_FILE), jsonText(manifest));
  return manifest;
}
