import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors/index.ts';

/**
 * Serves the built web UI at `/`. Without a build the engine still runs its API and says how to
 * build the UI instead of answering with a bare 404.
 */
export async function registerUi(app: FastifyInstance, distDir: string): Promise<void> {
  if (!existsSync(join(distDir, 'index.html'))) {
    app.get('/', { schema: { hide: true } }, async () => {
      throw new AppError('ui_not_built', 'The web UI has not been built. Run `npm run build:ui` (npm start does it for you) and reload.');
    });
    return;
  }
  await app.register(fastifyStatic, {
    root: distDir,
    prefix: '/',
    index: ['index.html'],
    wildcard: true,
    // Vite puts content-hashed files under assets/, which may be cached for good; everything else
    // (index.html, favicon) keeps its name across builds and must be revalidated.
    setHeaders(res, path) {
      res.header('cache-control', /[\\/]assets[\\/]/.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
}
