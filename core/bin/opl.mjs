#!/usr/bin/env node
// The `opl` command: gets onto Node 24 (installing it from the npm registry if the machine's Node
// is older), then runs the TypeScript CLI with the flags isolated-vm needs and those of the heap
// profile (OPL_HEAP_PROFILE).
import { ensureDependencies, ensureNode24, launchOpl } from '../bootstrap/runtime.mjs';

const node = ensureNode24();
ensureDependencies(node);
launchOpl(node, process.argv.slice(2));
