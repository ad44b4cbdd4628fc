import { defineConfig } from 'vite';

// The UI talks to the engine only over HTTP and imports nothing of Node, this file included.
const root = import.meta.dirname;
// `npm run dev`-style work against a locally started engine (`opl start`, default port).
const engine = 'http://127.0.0.1:8765';

// Paths the engine answers; everything else is the UI itself.
const enginePaths = ['/api', '/healthz', '/readyz', '/openapi.json', '/providers', '/open-playlists', '/schemas'];

export default defineConfig({
  root,
  base: '/',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
  },
  server: {
    host: '127.0.0.1',
    proxy: Object.fromEntries(enginePaths.map((path) => [path, { target: engine, changeOrigin: false }])),
  },
  preview: {
    host: '127.0.0.1',
  },
});
