// Schemas entry (zod): for the engine, the CLI and tools that validate plugin data and manifests.
export * from './capabilities.schema.ts';
export * from './capabilities.ts';
export * from './manifest.schema.ts';
export * from './organizer.schema.ts';
export * from './model.schema.ts';
export * from './operations.schema.ts';
export * from './open-playlist.schema.ts';
export * from './snapshot-manifest.schema.ts';
export { findExcessiveNesting, jsonDepthExceeds } from './json-depth.ts';
