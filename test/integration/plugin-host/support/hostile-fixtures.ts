import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSignedBundle, type SignedBundle, type TestSigner } from './signed-bundles.ts';

export const HOSTILE_DIR = fileURLToPath(new URL('../../../fixtures/plugins/hostile/', import.meta.url));

export interface FixtureValues {
  /** The granted origin, `http://api.example.com:<port>`. */
  readonly origin: string;
  readonly port: number;
  readonly otherPort: number;
}

function substitute(text: string, values: FixtureValues): string {
  return text.replaceAll('__ORIGIN__', values.origin).replaceAll('__OTHER_PORT__', String(values.otherPort)).replaceAll('__PORT__', String(values.port));
}

async function readJson(path: string, values: FixtureValues): Promise<Record<string, unknown> | null> {
  try {
    return JSON.parse(substitute(await readFile(path, 'utf8'), values)) as Record<string, unknown>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

export async function hostileFixtureNames(): Promise<string[]> {
  const entries = await readdir(HOSTILE_DIR, { withFileTypes: true });
  return entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
}

/** The plugin id of a fixture directory. */
export function hostileId(name: string): string {
  return `test.hostile.${name}`;
}

/** Builds, signs and verifies every hostile fixture into `outRoot/<name>`. */
export async function buildHostileBundles(signer: TestSigner, values: FixtureValues, outRoot: string): Promise<Map<string, SignedBundle>> {
  const base = await readJson(join(HOSTILE_DIR, 'base.plugin.json'), values);
  if (!base) throw new Error('base.plugin.json is missing');
  const bundles = new Map<string, SignedBundle>();
  for (const name of await hostileFixtureNames()) {
    const overrides = (await readJson(join(HOSTILE_DIR, name, 'plugin.json'), values)) ?? {};
    const manifest: Record<string, unknown> = {
      ...base,
      ...overrides,
      id: hostileId(name),
      name: `Hostile: ${name}`,
      provider: { ...(base.provider as object), ...(overrides.provider ?? {}) },
    };
    const code = substitute(await readFile(join(HOSTILE_DIR, name, 'plugin.js'), 'utf8'), values);
    bundles.set(name, await buildSignedBundle(signer, manifest, code, join(outRoot, name)));
  }
  return bundles;
}
