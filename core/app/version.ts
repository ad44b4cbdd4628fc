import { readFileSync } from 'node:fs';

const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

/** The engine's version, from package.json; semver, used for plugin `engines.opl` ranges too. */
export const ENGINE_VERSION: string = manifest.version;
