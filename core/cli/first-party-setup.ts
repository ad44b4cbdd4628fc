import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runPluginCli, type PluginCliIo } from '@opl/plugin-sdk/cli';
import { bundleDirIn, publicKeyPathFor, readKeyRecordFile, readTrustStore } from '@opl/plugin-sdk/tools';

/** The key id of the publisher key a fresh checkout generates for its own first-party plugins. */
export const FIRST_PARTY_KEY_ID = 'opl-first-party';

export interface FirstPartySetupOptions {
  /** The installation root holding `plugins/`. */
  installRoot: string;
  registryDir: string;
  trustFile: string;
  /** Secret key file; generated on first use. */
  keyFile: string;
  io: PluginCliIo;
}

const LOCK_WAIT_MS = 60_000;
/** A lock older than this was left by a process that died while holding it. */
const STALE_LOCK_MS = 120_000;

/** Runs `action` while holding an exclusive lock directory (mkdir is atomic on every filesystem we run on). */
async function withDirectoryLock<T>(lockDir: string, action: () => Promise<T>): Promise<T> {
  await mkdir(dirname(lockDir), { recursive: true });
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      await mkdir(lockDir);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const age = Date.now() - ((await stat(lockDir).catch(() => null))?.mtimeMs ?? Date.now());
      if (age > STALE_LOCK_MS) await rm(lockDir, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`${lockDir} is held by another setup; remove it if no other setup is running`, { cause: error });
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  try {
    return await action();
  } finally {
    await rm(lockDir, { recursive: true, force: true });
  }
}

async function cli(io: PluginCliIo, ...argv: string[]): Promise<void> {
  const code = await runPluginCli(argv, io);
  if (code !== 0) throw new Error(`opl-plugin ${argv[0] ?? ''} failed with exit code ${code}`);
}

/**
 * Written after a successful setup, one per registry directory (so setting up a temporary registry
 * never invalidates the default one); the bootstrap rebuilds when a plugin source is newer.
 * core/bootstrap/runtime.mjs computes the same name.
 */
export function firstPartyStampFile(keyFile: string, registryDir: string): string {
  const digest = createHash('sha256').update(registryDir).digest('hex').slice(0, 16);
  return join(dirname(keyFile), `first-party-${digest}.stamp`);
}

/** Every plugin project (a directory with plugin.json) under plugins/providers and plugins/formats. */
export async function firstPartyProjects(installRoot: string): Promise<string[]> {
  const projects: string[] = [];
  for (const group of ['providers', 'formats']) {
    const groupDir = join(installRoot, 'plugins', group);
    if (!existsSync(groupDir)) continue;
    for (const entry of (await readdir(groupDir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.isDirectory() && existsSync(join(groupDir, entry.name, 'plugin.json'))) projects.push(join(groupDir, entry.name));
    }
  }
  return projects;
}

/**
 * What a fresh checkout needs for a working registry without anyone else's private key: a local
 * publisher key (generated once), trusted by the local trust store, and every first-party plugin
 * built, signed and published with it — through the same `opl-plugin` commands a third party uses.
 */
export async function setupFirstPartyPlugins(options: FirstPartySetupOptions): Promise<string[]> {
  const { io, keyFile, trustFile, registryDir } = options;
  // Several setups may start at once (parallel test workers, `npm start` twice): one makes the key.
  await withDirectoryLock(`${keyFile}.lock`, async () => {
    if (!existsSync(keyFile)) {
      await cli(io, 'keygen', '--key-id', FIRST_PARTY_KEY_ID, '--publisher', 'Open Playlist Engine (built on this machine)', '--out', keyFile);
    }
  });
  const publicFile = publicKeyPathFor(keyFile);
  const record = await readKeyRecordFile(publicFile);
  const trust = await readTrustStore(trustFile, { missingOk: true });
  if (!trust.keys.some((key) => key.key_id === record.key_id && key.public_key === record.public_key)) {
    await cli(io, 'trust', 'add', publicFile, '--trust', trustFile);
  }

  const published: string[] = [];
  for (const project of await firstPartyProjects(options.installRoot)) {
    const source = JSON.parse(await readFile(join(project, 'plugin.json'), 'utf8')) as { id: string; version: string };
    const outDir = await mkdtemp(join(tmpdir(), 'opl-first-party-'));
    try {
      await cli(io, 'build', project, '--out', outDir);
      await cli(io, 'sign', outDir, '--key', keyFile);
      // A rebuilt first-party plugin of the same version replaces the previous local build.
      await rm(bundleDirIn(registryDir, source.id, source.version), { recursive: true, force: true });
      await cli(io, 'publish', outDir, '--registry', registryDir, '--key', publicFile);
      published.push(`${source.id}@${source.version}`);
    } finally {
      await rm(outDir, { recursive: true, force: true });
    }
  }
  await writeFile(firstPartyStampFile(keyFile, registryDir), `${JSON.stringify({ registry: registryDir, published, at: new Date().toISOString() })}\n`);
  return published;
}
