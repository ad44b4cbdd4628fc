#!/usr/bin/env node
// The `opl-plugin` command. The CLI is TypeScript run by Node 24's type stripping; `test` runs
// plugins in isolated-vm, which needs --no-node-snapshot, so the CLI is started with that flag.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const major = Number(process.versions.node.split('.')[0]);
if (major < 24) {
  process.stderr.write(`opl-plugin needs Node.js 24 or newer (this is ${process.version}).\n`);
  process.exit(1);
}

const main = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));
const child = spawn(process.execPath, ['--no-node-snapshot', main, ...process.argv.slice(2)], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => {
  if (signal) process.kill(process.pid, signal);
  else process.exit(code ?? 1);
});
