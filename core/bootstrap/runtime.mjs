// Plain JavaScript on purpose: this file runs on whatever Node the machine has (it may be older than
// 24 and unable to strip types) and gets the project onto Node 24 before any TypeScript runs.
import { spawnSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync, readdirSync, statSync, mkdirSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { heapProfileEnv, heapProfileFlags, heapProfileOf } from './heap-profile.mjs';

export const REQUIRED_NODE_MAJOR = 24;
/** The exact Node 24 release fetched from the npm registry's `node` package when the machine lacks one. */
export const PINNED_NODE_VERSION = '24.21.0';

export const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const toolsDir = join(projectRoot, '.tools', `node-${PINNED_NODE_VERSION}`);
const toolsNodeBin = join(toolsDir, 'node_modules', 'node', 'bin');
/**
 * Node's module compile cache (V8 code cache plus the TypeScript type-stripping output): an engine,
 * CLI or test child process that loads the same files again starts about twice as fast. Node checks
 * each entry against the file's content, so a changed file is never served stale.
 */
export const compileCacheDir = join(projectRoot, 'node_modules', '.cache', 'node-compile');

function say(message) {
  process.stderr.write(`[opl setup] ${message}\n`);
}

function majorOf(version) {
  return Number.parseInt(String(version).replace(/^v/, '').split('.')[0] ?? '0', 10);
}

function nodeVersionAt(binary) {
  const result = spawnSync(binary, ['--version'], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : null;
}

/**
 * Environment for child processes: Node 24's directory first on PATH, so `npm` and its scripts run
 * on it. `defaults` (the heap profile's variables) apply where this environment does not set them.
 */
export function runtimeEnv(nodeBinary, defaults = {}) {
  const env = { ...defaults, ...process.env };
  // NODE_DISABLE_COMPILE_CACHE (Node's own switch) still turns it off; a set directory is kept.
  env.NODE_COMPILE_CACHE ??= compileCacheDir;
  env.PATH = [dirname(nodeBinary), join(projectRoot, 'node_modules', '.bin'), env.PATH ?? ''].join(delimiter);
  // The machine's npmrc may point node-gyp at the system Node's headers; those would build
  // native addons for the wrong ABI. Our native dependencies ship prebuilt binaries for Node 24.
  delete env.npm_config_nodedir;
  delete env.NPM_CONFIG_NODEDIR;
  return env;
}

/** Returns the path of a Node >= 24 binary, installing the pinned release from the npm registry if needed. */
export function ensureNode24() {
  if (majorOf(process.versions.node) >= REQUIRED_NODE_MAJOR) return process.execPath;
  const local = join(toolsNodeBin, 'node');
  const existing = existsSync(local) ? nodeVersionAt(local) : null;
  if (existing && majorOf(existing) >= REQUIRED_NODE_MAJOR) return local;

  say(`Node ${process.versions.node} is older than ${REQUIRED_NODE_MAJOR}; installing node@${PINNED_NODE_VERSION} from the npm registry into .tools/`);
  mkdirSync(toolsDir, { recursive: true });
  writeFileSync(join(toolsDir, 'package.json'), JSON.stringify({ name: 'opl-node-runtime', private: true }, null, 2));
  const result = spawnSync(
    'npm',
    ['install', '--no-audit', '--no-fund', '--no-save', '--no-package-lock', '--loglevel=error', `node@${PINNED_NODE_VERSION}`],
    { cwd: toolsDir, stdio: 'inherit', env: { ...process.env, npm_config_nodedir: undefined } },
  );
  const installed = existsSync(local) ? nodeVersionAt(local) : null;
  if (result.status !== 0 || !installed || majorOf(installed) < REQUIRED_NODE_MAJOR) {
    say(`could not install Node ${PINNED_NODE_VERSION} (npm exit ${result.status}). Install Node ${REQUIRED_NODE_MAJOR}+ yourself and retry.`);
    process.exit(1);
  }
  say(`using ${installed} from .tools/`);
  return local;
}

function fingerprint(nodeBinary) {
  const hash = createHash('sha256');
  for (const file of ['package.json', 'package-lock.json', 'plugin-sdk/package.json']) {
    const path = join(projectRoot, file);
    hash.update(file).update(existsSync(path) ? readFileSync(path) : '');
  }
  hash.update(String(majorOf(nodeVersionAt(nodeBinary) ?? '0')));
  return hash.digest('hex');
}

/** Runs `npm ci` (on Node 24) when node_modules is missing or older than the lockfile. */
export function ensureDependencies(nodeBinary) {
  const stampFile = join(projectRoot, 'node_modules', '.opl-install-stamp');
  const expected = fingerprint(nodeBinary);
  if (existsSync(stampFile) && readFileSync(stampFile, 'utf8') === expected) return;
  const hasLock = existsSync(join(projectRoot, 'package-lock.json'));
  say(`installing npm dependencies (${hasLock ? 'npm ci' : 'npm install'})`);
  const result = spawnSync('npm', [hasLock ? 'ci' : 'install', '--no-audit', '--no-fund'], {
    cwd: projectRoot,
    stdio: 'inherit',
    env: runtimeEnv(nodeBinary),
  });
  if (result.status !== 0) {
    say('npm could not install the dependencies; see the output above.');
    process.exit(result.status ?? 1);
  }
  writeFileSync(stampFile, expected);
}

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'dist' || entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * Builds the UI with Vite when ui/dist is missing or older than any UI source file. Throws with
 * Vite's output when the build fails; returns whether it built.
 */
export function buildUiIfStale(nodeBinary) {
  const uiDir = join(projectRoot, 'ui');
  const builtIndex = join(uiDir, 'dist', 'index.html');
  if (existsSync(builtIndex) && statSync(builtIndex).mtimeMs >= newestMtime(uiDir)) return false;
  const result = spawnSync(nodeBinary, [join(projectRoot, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', join(uiDir, 'vite.config.ts'), '--logLevel', 'warn'], {
    cwd: projectRoot,
    encoding: 'utf8',
    // Vite builds for production only when NODE_ENV is unset or says so: under a test runner
    // (NODE_ENV=test) or a shell with NODE_ENV=development, the UI came out with Lit's
    // development build (slower, and "Lit is in dev mode" in every console).
    env: { ...runtimeEnv(nodeBinary), NODE_ENV: 'production' },
  });
  if (result.status !== 0) throw new Error(`the UI build (vite build) failed:\n${result.stdout}\n${result.stderr}`);
  return true;
}

/** Setup step of `npm start`: builds the UI if needed, exiting with Vite's output on failure. */
export function ensureUiBuilt(nodeBinary) {
  try {
    if (existsSync(join(projectRoot, 'ui', 'dist', 'index.html'))) {
      if (buildUiIfStale(nodeBinary)) say('rebuilt the web UI');
    } else {
      say('building the web UI (vite build)');
      buildUiIfStale(nodeBinary);
    }
  } catch (error) {
    say(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}

/**
 * Setup step of `npm start`: builds, signs and publishes the first-party plugins (`opl plugin
 * setup`) with the locally generated publisher key when the plugins or the SDK changed since the
 * last setup, or the registry directory it published into is gone. Skipped for a remote registry.
 */
export function ensureFirstPartyPlugins(nodeBinary) {
  if (process.env.OPL_REGISTRY_URL) return;
  const registryDir = process.env.OPL_REGISTRY_DIR ? resolve(process.cwd(), process.env.OPL_REGISTRY_DIR) : join(projectRoot, 'registry');
  // Same name as firstPartyStampFile in core/cli/first-party-setup.ts: one stamp per registry directory.
  const stampFile = join(projectRoot, '.opl-local', `first-party-${createHash('sha256').update(registryDir).digest('hex').slice(0, 16)}.stamp`);
  if (existsSync(stampFile) && existsSync(join(registryDir, 'index.json'))) {
    let stamp = {};
    try {
      stamp = JSON.parse(readFileSync(stampFile, 'utf8'));
    } catch {
      // An unreadable stamp just means we rebuild.
    }
    const sourcesTime = Math.max(newestMtime(join(projectRoot, 'plugins')), newestMtime(join(projectRoot, 'plugin-sdk', 'src')));
    if (stamp.registry === registryDir && statSync(stampFile).mtimeMs >= sourcesTime) return;
  }
  say('building, signing and publishing the first-party plugins (opl plugin setup)');
  const result = spawnSync(nodeBinary, ['--no-node-snapshot', join(projectRoot, 'core', 'cli', 'main.ts'), 'plugin', 'setup'], {
    cwd: process.cwd(),
    encoding: 'utf8',
    env: runtimeEnv(nodeBinary),
  });
  if (result.status !== 0) {
    say(`first-party plugin setup failed:\n${result.stdout}\n${result.stderr}`);
    process.exit(1);
  }
}

/** Runs a command to completion with signals forwarded, then exits with its status. */
export function execAndExit(command, args, env) {
  const child = spawn(command, args, { cwd: process.cwd(), stdio: 'inherit', env });
  const forward = (signal) => () => child.kill(signal);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, forward(signal));
  child.on('exit', (code, signal) => {
    if (signal) process.kill(process.pid, signal);
    process.exit(code ?? 1);
  });
}

/** The `opl` commands that load the first-party plugins from the local registry. */
const PLUGIN_COMMANDS = new Set(['start', 'serve', 'worker', 'dev', 'convert']);

/**
 * Runs `opl <args>` on `nodeBinary` with the setup every launcher does first (`npm start`, `npm run
 * opl`, `npx opl`): the web UI built, and the first-party plugins built, signed and published when
 * a command loads them and their sources changed (an engine would otherwise load none on a fresh
 * clone, and `opl convert` would keep running the builds of an older checkout).
 */
export function launchOpl(nodeBinary, args) {
  ensureUiBuilt(nodeBinary);
  if (PLUGIN_COMMANDS.has(args[0])) ensureFirstPartyPlugins(nodeBinary);
  const profile = heapProfileOf(process.env);
  execAndExit(nodeBinary, ['--no-node-snapshot', ...heapProfileFlags(profile), join(projectRoot, 'core', 'cli', 'main.ts'), ...args], runtimeEnv(nodeBinary, heapProfileEnv(profile)));
}
