import { fileURLToPath } from 'node:url';
import type { Config } from '../config/index.ts';

const UI_VITE_CONFIG = fileURLToPath(new URL('../../ui/vite.config.ts', import.meta.url));

/**
 * `opl dev`: the engine (API + worker) and Vite's dev server for the UI with hot reload, in one
 * process. Vite proxies the API paths to the engine, whose address the UI config expects at the
 * default port; a different OPL_PORT is refused rather than silently proxying to nothing.
 */
export async function devCommand(config: Config): Promise<number> {
  if (config.port !== 8765 || config.host !== '127.0.0.1') {
    process.stderr.write('opl dev: the UI dev server proxies to http://127.0.0.1:8765; unset OPL_PORT/OPL_HOST for dev mode.\n');
    return 2;
  }
  const { createServer } = await import('vite');
  const vite = await createServer({ configFile: UI_VITE_CONFIG });
  const { runEngine } = await import('./run-engine.ts');
  const engine = runEngine(config, { http: true, worker: true });
  await vite.listen();
  vite.printUrls();
  const code = await engine;
  await vite.close();
  return code;
}
