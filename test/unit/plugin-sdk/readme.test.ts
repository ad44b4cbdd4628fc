import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PLUGIN_CLI_COMMANDS } from '../../../plugin-sdk/src/cli/index.ts';
import { manifestSourceSchema } from '../../../plugin-sdk/src/manifest.schema.ts';
import { OPERATIONS } from '../../../plugin-sdk/src/operations.schema.ts';
import { REFUSAL_REASONS } from '../../../plugin-sdk/src/tools/index.ts';

const readme = readFileSync(new URL('../../../plugin-sdk/README.md', import.meta.url), 'utf8');

/** Rows of the markdown table whose header row starts with `| <first> |`. */
function tableRows(first: string): string[][] {
  const lines = readme.split('\n');
  const start = lines.findIndex((line) => line.startsWith(`| ${first} |`));
  if (start < 0) return [];
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(line.slice(1, -1).split(/(?<!\\)\|/).map((cell) => cell.trim()));
  }
  return rows;
}

describe('plugin-sdk README', () => {
  it('lists every adapter operation with its kind, requirements and whether it writes', () => {
    const rows = new Map(tableRows('Operation').map((cells) => [cells[0]!.replaceAll('`', ''), cells]));
    expect([...rows.keys()].sort()).toEqual(Object.keys(OPERATIONS).sort());
    for (const [name, spec] of Object.entries(OPERATIONS)) {
      const [, kind, , , requires, writes] = rows.get(name)!;
      expect(kind, name).toBe(spec.plugin);
      const expected = [...spec.requires, ...(spec.requiresFlag ? [spec.requiresFlag] : [])];
      expect(requires === '—' ? [] : requires!.split(', ').map((item) => item.replaceAll('`', '')), name).toEqual(expected);
      expect(writes, name).toBe(spec.writes ? 'yes' : 'no');
    }
  });

  it('documents every top-level manifest field', () => {
    const documented = new Set(tableRows('Field').map((cells) => cells[0]!.replaceAll('`', '').split('.')[0]));
    for (const field of [...Object.keys(manifestSourceSchema.shape), 'files']) expect(documented, field).toContain(field);
  });

  it('documents every CLI command and every refusal reason', () => {
    const commands = tableRows('Command').map((cells) => cells[0]!.replaceAll('`', '').split(' ')[0]);
    for (const name of Object.keys(PLUGIN_CLI_COMMANDS)) expect(commands, name).toContain(name);
    for (const reason of REFUSAL_REASONS) expect(readme, reason).toContain(`\`${reason}\``);
  });
});
