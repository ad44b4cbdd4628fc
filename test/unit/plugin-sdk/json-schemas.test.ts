import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { schemaDrift } from '../../../plugin-sdk/src/cli/generate-schemas.ts';
import { manifestSourceSchema } from '../../../plugin-sdk/src/manifest.schema.ts';
import { generateJsonSchemas } from '../../../plugin-sdk/src/tools/json-schemas.ts';

type JsonSchema = { $schema: string; $comment: string; properties: Record<string, unknown>; required: string[]; additionalProperties?: unknown };
const generated = new Map([...generateJsonSchemas()].map(([name, text]) => [name, JSON.parse(text) as JsonSchema]));

describe('published JSON Schemas', () => {
  it('match the checked-in copies in plugin-sdk/schema (run `npm run schemas` after changing a zod schema)', async () => {
    expect(await schemaDrift()).toEqual([]);
  });

  it('report every missing file when the directory is out of step', async () => {
    const drift = await schemaDrift('/nonexistent/opl-schema-dir');
    expect(drift).toHaveLength(generated.size);
    expect(drift).toContain('manifest.schema.json is missing');
  });

  it('cover the manifest, the bundle manifest, the model and the registry documents, each marked as generated', () => {
    expect([...generated.keys()].sort()).toEqual([
      'album.schema.json',
      'artist.schema.json',
      'bundle-manifest.schema.json',
      'export/open-playlist-bundle-v1.json',
      'export/open-playlist-export-manifest-v1.json',
      'export/open-playlist-snapshot-manifest-v1.json',
      'key-record.schema.json',
      'manifest.schema.json',
      'playlist.schema.json',
      'registry-index.schema.json',
      'signature.schema.json',
      'track.schema.json',
      'trust-store.schema.json',
    ]);
    for (const [name, schema] of generated) {
      expect(schema.$schema, name).toBe('https://json-schema.org/draft/2020-12/schema');
      expect(schema.$comment, name).toMatch(/^Generated from plugin-sdk\/src\/.+ by `npm run schemas` — do not edit\.$/);
    }
  });

  it('give the published export documents an $id under the default schema base, named by their path', () => {
    for (const name of ['export/open-playlist-bundle-v1.json', 'export/open-playlist-export-manifest-v1.json', 'export/open-playlist-snapshot-manifest-v1.json']) {
      expect((generated.get(name) as JsonSchema & { $id?: string }).$id, name).toBe(`https://open-playlist.org/schemas/${name}`);
    }
  });

  it('describe plugin.json as an author writes it: defaults optional, no file hashes, $schema allowed', () => {
    const manifest = generated.get('manifest.schema.json')!;
    expect(manifest.required.sort()).toEqual(['engines', 'id', 'kind', 'manifest_version', 'name', 'publisher', 'version']);
    expect(manifest.properties).not.toHaveProperty('files');
    expect(manifest.additionalProperties).toBeUndefined();
    const bundle = generated.get('bundle-manifest.schema.json')!;
    expect(bundle.required).toEqual(expect.arrayContaining(['files', 'limits', 'network', 'entry']));
  });

  it.each(['provider', 'format'])('know every field the %s template uses, and the template is a valid manifest source', (kind) => {
    const template = JSON.parse(readFileSync(new URL(`../../../plugin-sdk/templates/${kind}/plugin.json`, import.meta.url), 'utf8')) as Record<string, unknown>;
    const { properties } = generated.get('manifest.schema.json')!;
    for (const key of Object.keys(template).filter((name) => name !== '$schema')) expect(properties, key).toHaveProperty(key);
    const filled = JSON.parse(JSON.stringify(template).replaceAll('__PLUGIN_ID__', 'com.example.x').replaceAll('__PROVIDER_NAME__', 'example').replaceAll('__KEY_ID__', 'example-key')) as unknown;
    expect(manifestSourceSchema.safeParse(filled).success).toBe(true);
  });
});
