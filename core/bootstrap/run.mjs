#!/usr/bin/env node
// Entry point of the npm scripts: `node core/bootstrap/run.mjs opl <args>` runs the engine CLI,
// `node core/bootstrap/run.mjs npm <args>` runs npm, both on Node 24 with dependencies installed.
import { join } from 'node:path';
import { heapProfileEnv, heapProfileFlags, heapProfileOf } from './heap-profile.mjs';
import { ensureDependencies, ensureFirstPartyPlugins, ensureNode24, ensureUiBuilt, execAndExit, projectRoot, runtimeEnv } from './runtime.mjs';

const [mode, ...args] = process.argv.slice(2);
const node = ensureNode24();
ensureDependencies(node);

if (mode === 'opl') {
  ensureUiBuilt(node);
  if (args[0] === 'start' || args[0] === 'serve' || args[0] === 'worker' || args[0] === 'dev') ensureFirstPartyPlugins(node);
  execAndExit(node, ['--no-node-snapshot', ...heapProfileFlags(heapProfileOf(process.env)), join(projectRoot, 'core', 'cli', 'main.ts'), ...args], runtimeEnv(node, heapProfileEnv(heapProfileOf(process.env))));
} else if (mode === 'npm') {
  execAndExit('npm', args, runtimeEnv(node));
} else {
  process.stderr.write('usage: node core/bootstrap/run.mjs opl <command> | npm <args>\n');
  process.exit(2);
}
