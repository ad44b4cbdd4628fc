import { z } from 'zod';
import { pluginIdSchema, semverSchema } from '../manifest.schema.ts';

/** `index.json` of a registry: which plugins it holds and which versions of each (ascending semver). */
export const registryIndexSchema = z.object({
  registry_version: z.literal(1),
  plugins: z.record(pluginIdSchema, z.object({ versions: z.array(semverSchema) })).default({}),
});

export type RegistryIndex = z.output<typeof registryIndexSchema>;

export function emptyRegistryIndex(): RegistryIndex {
  return { registry_version: 1, plugins: {} };
}
