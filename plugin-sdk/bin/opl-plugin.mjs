#!/usr/bin/env node
// The `opl-plugin` command. The published package runs the compiled CLI (dist/); in the
// repository there is no dist/ and Node 24's type stripping runs the TypeScript sources. `test`
// runs plugins in isolated-vm, which needs --no-node-snapshot, so the CLI is started with that flag.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const major = Number(process.versions.node.split('.')[0]);
if (major < 24) {
  process.stderr.write(`opl-plugin needs Node.js 24 or newer (this is ${process.version}).\n`);
  process.exit(1);
}

const compiled = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const main = existsSync(compiled) ? compiled : fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));
const child = spawn(process.execPath, ['--no-node-snapshot', main, ...process.argv.slice(2)], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => {
  if (signal) process.kill(process.pid, signal);
  else process.exit(code ?? 1);
});
