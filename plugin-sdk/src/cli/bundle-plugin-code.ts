import { builtinModules } from 'node:module';
import { dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { build as viteBuild, Logger, Plugin, Rolldown } from 'vite';
import { PluginToolError } from '../tools/index.ts';

/**
 * Bundles a plugin's source into ONE self-contained ES module with Vite (library mode): the
 * sandbox compiles the entry with no module loader, so everything — the SDK runtime included —
 * must be inside it, and any import left over is an error rather than a runtime surprise.
 */

// `.ts` in the repository, `.js` in the published package (compiled with rewritten extensions).
const SDK_RUNTIME_ENTRY = fileURLToPath(new URL(import.meta.url.endsWith('.ts') ? '../index.ts' : '../index.js', import.meta.url));
const SDK_SOURCE_DIR = dirname(SDK_RUNTIME_ENTRY);
const BUILTINS = new Set(builtinModules);

/** Resolves `@opl/plugin-sdk` to this SDK's runtime entry and refuses what cannot run in the sandbox. */
function sandboxImports(): Plugin {
  return {
    name: 'opl-plugin-sandbox-imports',
    enforce: 'pre',
    resolveId(source) {
      // The plugin gets exactly the SDK runtime of the CLI that builds it, with or without an install.
      if (source === '@opl/plugin-sdk') return SDK_RUNTIME_ENTRY;
      if (source.startsWith('@opl/plugin-sdk/')) {
        this.error(`"${source}" is for hosts and tools; a plugin may import only "@opl/plugin-sdk".`);
      }
      if (source.startsWith('node:') || BUILTINS.has(source)) {
        this.error(`"${source}" is a Node.js built-in; plugins run in a sandbox without Node APIs (use ctx.fetch, ctx.decodeText, … from the SDK).`);
      }
      return null;
    },
  };
}

function forwardingLogger(stderr: { write(text: string): unknown }): Logger {
  const warned = new Set<string>();
  let warnedAny = false;
  let errored = false;
  const warn = (message: string) => {
    warnedAny = true;
    stderr.write(`vite: ${message}\n`);
  };
  return {
    info: () => undefined,
    warn,
    warnOnce: (message) => {
      if (!warned.has(message)) warn(message);
      warned.add(message);
    },
    error: (message) => {
      errored = true;
      stderr.write(`vite: ${message}\n`);
    },
    clearScreen: () => undefined,
    hasErrorLogged: () => errored,
    get hasWarned() {
      return warnedAny;
    },
  };
}

export interface BundledCode {
  code: string;
  /** Modules that went into the bundle, relative to the project (for the build report). */
  modules: string[];
}

export async function bundlePluginCode(options: { projectDir: string; entry: string; stderr: { write(text: string): unknown } }): Promise<BundledCode> {
  // Vite loads only when something is built: every other command (and `opl plugin …`) stays light.
  const { build } = await import('vite');
  let output: Awaited<ReturnType<typeof viteBuild>>;
  try {
    output = await build({
      configFile: false,
      root: options.projectDir,
      mode: 'production',
      envDir: false,
      publicDir: false,
      logLevel: 'warn',
      customLogger: forwardingLogger(options.stderr),
      plugins: [sandboxImports()],
      // Libraries test process.env.NODE_ENV; the sandbox has no `process`, so fold it at build time.
      define: { 'process.env.NODE_ENV': '"production"' },
      build: {
        write: false,
        minify: true,
        target: 'es2022',
        copyPublicDir: false,
        reportCompressedSize: false,
        lib: { entry: options.entry, formats: ['es'], fileName: () => 'plugin.js' },
        rolldownOptions: {
          // The SDK runtime is free of side effects by design; saying so lets unused parts (and
          // the zod behind its schema constants) drop out of every plugin.
          treeshake: { moduleSideEffects: (id: string) => !id.startsWith(SDK_SOURCE_DIR) },
          // No `// <module path>` markers: they would leak the builder's directories into the
          // signed file and make the same source build differently on two machines.
          experimental: { attachDebugInfo: 'none' },
          output: { codeSplitting: false, comments: false },
        },
      },
    });
  } catch (error) {
    throw new PluginToolError(`Building ${relative(options.projectDir, options.entry) || options.entry} failed: ${(error as Error).message}`, { cause: error });
  }
  const outputs = (Array.isArray(output) ? output : [output]) as Rolldown.RolldownOutput[];
  const items = outputs.flatMap((result) => ('output' in result ? result.output : []));
  const chunks = items.filter((item): item is Rolldown.OutputChunk => item.type === 'chunk');
  const assets = items.filter((item) => item.type === 'asset');
  if (chunks.length !== 1 || assets.length > 0) {
    throw new PluginToolError(`The build produced ${chunks.length} chunks and ${assets.length} assets (${items.map((item) => item.fileName).join(', ')}); a plugin must bundle into exactly one JavaScript file, so remove CSS, asset and worker imports.`);
  }
  const chunk = chunks[0]!;
  const leftover = [...chunk.imports, ...chunk.dynamicImports];
  if (leftover.length > 0) throw new PluginToolError(`The bundle still imports ${leftover.join(', ')}; plugins must be self-contained.`);
  if (!chunk.exports.includes('default')) throw new PluginToolError(`${relative(options.projectDir, options.entry)} has no default export; export the result of definePlugin(…) as default.`);
  return { code: chunk.code, modules: Object.keys(chunk.modules).map((id) => relative(options.projectDir, id)) };
}
