#!/usr/bin/env node
// Runs npm scripts side by side (`node test/support/run-in-parallel.mjs lint typecheck`): the
// checks before the test run are single-threaded, so on two cores they take the time of the
// longest instead of the sum. Each script's output is printed whole when it ends, so the logs of
// two scripts never interleave; the exit status is the first failure's, or 0.
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';

const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  process.stderr.write('usage: node test/support/run-in-parallel.mjs <npm script> [<npm script> …]\n');
  process.exit(2);
}

const runs = scripts.map(
  (script) =>
    new Promise((resolve) => {
      const started = Date.now();
      const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
      const output = [];
      child.stdout.on('data', (chunk) => output.push(chunk));
      child.stderr.on('data', (chunk) => output.push(chunk));
      child.on('error', (error) => output.push(Buffer.from(`${error.message}\n`)));
      child.on('close', (code, signal) => {
        const status = code ?? 1;
        const seconds = Math.round((Date.now() - started) / 1000);
        process.stdout.write(`\n> ${script}: ${status === 0 ? 'passed' : `failed (${signal ?? `exit ${status}`})`} in ${seconds}s\n`);
        process.stdout.write(Buffer.concat(output));
        resolve(status);
      });
    }),
);

const statuses = await Promise.all(runs);
process.exit(statuses.find((status) => status !== 0) ?? 0);
