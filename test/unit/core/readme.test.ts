import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configEnvSchema } from '../../../core/config/index.ts';

const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');

describe('README', () => {
  it('documents every OPL_* variable in its configuration table', () => {
    for (const name of Object.keys(configEnvSchema.shape)) {
      expect(readme, `README is missing ${name}`).toMatch(new RegExp(`^\\| \`${name}\` \\|`, 'm'));
    }
  });

  it('documents no variable the engine does not read', () => {
    const documented = [...readme.matchAll(/^\| `(OPL_[A-Z_]+)` \|/gm)].map((match) => match[1]);
    for (const name of documented) expect(Object.keys(configEnvSchema.shape)).toContain(name);
  });
});
