#!/usr/bin/env node
// Entry point of the npm scripts: `node core/bootstrap/run.mjs opl <args>` runs the engine CLI,
// `node core/bootstrap/run.mjs npm <args>` runs npm, both on Node 24 with dependencies installed.
import { ensureDependencies, ensureNode24, execAndExit, launchOpl, runtimeEnv } from './runtime.mjs';

const [mode, ...args] = process.argv.slice(2);
const node = ensureNode24();
ensureDependencies(node);

if (mode === 'opl') {
  launchOpl(node, args);
} else if (mode === 'npm') {
  execAndExit('npm', args, runtimeEnv(node));
} else {
  process.stderr.write('usage: node core/bootstrap/run.mjs opl <command> | npm <args>\n');
  process.exit(2);
}
