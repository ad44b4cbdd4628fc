import { chmod, mkdir, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { describeIssues } from './describe-issues.ts';
import { jsonText, readJsonFile, writeJsonFileAtomic } from './json-file.ts';
import { type KeyRecord, keyRecordSchema, type SecretKeyFile, secretKeyFileSchema } from './key.schema.ts';
import { secretKeyBytes } from './keygen.ts';
import { PluginToolError } from './tool-error.ts';

/** Reading and writing key files: secret keys private to their owner, public records as plain JSON. */

/** `publisher.json` → `publisher.pub.json`; `dev.key.json` / `dev.secret.json` → `dev.pub.json`. */
export function publicKeyPathFor(secretPath: string): string {
  const name = basename(secretPath).replace(/(?:\.(?:key|secret))?\.json$/, '');
  return join(dirname(secretPath), `${name}.pub.json`);
}

async function readExisting(path: string, what: string): Promise<unknown> {
  const json = await readJsonFile(path, what);
  if (json === null) throw new PluginToolError(`${what} ${path} does not exist.`);
  return json;
}

/** Reads and checks a secret key file; `warnings` says when its permissions let others read it. */
export async function readSecretKeyFile(path: string): Promise<{ key: SecretKeyFile; warnings: string[] }> {
  const parsed = secretKeyFileSchema.safeParse(await readExisting(path, 'The secret key file'));
  if (!parsed.success) throw new PluginToolError(`The secret key file ${path} is not valid: ${describeIssues(parsed.error)}.`);
  secretKeyBytes(parsed.data);
  const warnings: string[] = [];
  if (process.platform !== 'win32' && ((await stat(path)).mode & 0o077) !== 0) {
    warnings.push(`The secret key file ${path} is readable by other users; run: chmod 600 ${path}`);
  }
  return { key: parsed.data, warnings };
}

export async function readKeyRecordFile(path: string): Promise<KeyRecord> {
  const parsed = keyRecordSchema.safeParse(await readExisting(path, 'The public key file'));
  if (!parsed.success) throw new PluginToolError(`The public key file ${path} is not valid: ${describeIssues(parsed.error)}.`);
  return parsed.data;
}

export async function writeKeyRecordFile(path: string, record: KeyRecord): Promise<void> {
  await writeJsonFileAtomic(path, keyRecordSchema.parse(record));
}

/**
 * Writes the secret key (mode 0600, never over an existing file: losing a key by overwriting it
 * cannot be undone) and its public record next to it. Returns both paths.
 */
export async function writeKeyPairFiles(secretPath: string, secret: SecretKeyFile, record: KeyRecord): Promise<{ secretPath: string; publicPath: string }> {
  const publicPath = publicKeyPathFor(secretPath);
  if (publicPath === secretPath || secretPath.endsWith('.pub.json')) throw new PluginToolError(`The secret key file name ${secretPath} would collide with its public key file; choose a name not ending in .pub.json.`);
  await mkdir(dirname(secretPath), { recursive: true });
  try {
    await writeFile(secretPath, jsonText(secretKeyFileSchema.parse(secret)), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new PluginToolError(`${secretPath} already exists; refusing to overwrite a key. Choose another --out or remove the old file yourself.`, { cause: error });
    throw error;
  }
  // The umask may have masked the create mode; the secret must end up owner-only either way.
  await chmod(secretPath, 0o600);
  await writeKeyRecordFile(publicPath, record);
  return { secretPath, publicPath };
}
