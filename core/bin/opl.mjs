#!/usr/bin/env node
// The `opl` command: gets onto Node 24 (installing it from the npm registry if the machine's Node
// is older), then runs the TypeScript CLI with the flags isolated-vm needs and those of the heap
// profile (OPL_HEAP_PROFILE).
import { join } from 'node:path';
import { heapProfileEnv, heapProfileFlags, heapProfileOf } from '../bootstrap/heap-profile.mjs';
import { ensureDependencies, ensureNode24, ensureUiBuilt, execAndExit, projectRoot, runtimeEnv } from '../bootstrap/runtime.mjs';

const node = ensureNode24();
ensureDependencies(node);
ensureUiBuilt(node);
execAndExit(node, ['--no-node-snapshot', ...heapProfileFlags(heapProfileOf(process.env)), join(projectRoot, 'core', 'cli', 'main.ts'), ...process.argv.slice(2)], runtimeEnv(node, heapProfileEnv(heapProfileOf(process.env))));
