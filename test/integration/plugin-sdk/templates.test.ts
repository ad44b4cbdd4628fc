import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.ts';

const SDK_ENTRY = fileURLToPath(new URL('../../../plugin-sdk/src/index.ts', import.meta.url));

/**
 * Type-checks a generated project with its own tsconfig (ES built-ins only, like the sandbox),
 * the SDK mapped in. Only the project's own files are judged: the SDK's sources are checked by
 * the repository's build with its own settings.
 */
function typeErrors(projectDir: string): string[] {
  const configPath = join(projectDir, 'tsconfig.json');
  const config = ts.readConfigFile(configPath, (path) => ts.sys.readFile(path));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, projectDir, {
    // The SDK's sources use .ts specifiers; a published SDK ships the same entry.
    allowImportingTsExtensions: true,
    paths: { '@opl/plugin-sdk': [SDK_ENTRY] },
  });
  const program = ts.createProgram(parsed.fileNames, parsed.options);
  return ts
    .getPreEmitDiagnostics(program)
    .filter((diagnostic) => diagnostic.file === undefined || diagnostic.file.fileName.startsWith(projectDir))
    .map((diagnostic) => `${diagnostic.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`);
}

describe('plugin templates', () => {
  let work: string;
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'opl-templates-'));
  });
  afterAll(() => rm(work, { recursive: true, force: true }));

  it.each(['provider', 'format'])('the %s template type-checks strictly with only ECMAScript built-ins (no DOM, no Node)', async (kind) => {
    const dir = join(work, kind);
    expect((await runCli(['init', dir, '--id', `com.example.${kind}-demo`, '--name', `${kind} demo`, '--kind', kind], work)).code).toBe(0);
    expect(typeErrors(dir)).toEqual([]);
    const source = await readFile(join(dir, 'src', 'index.ts'), 'utf8');
    expect(source).not.toMatch(/__[A-Z_]+__/); // every placeholder replaced
  });

  it('a type error in plugin code is caught by the same check', async () => {
    const dir = join(work, 'provider');
    const file = join(dir, 'src', 'index.ts');
    const source = await readFile(file, 'utf8');
    await writeFile(file, source.replace("return { ok: true, account_id: me.id", "return { ok: 'yes', account_id: me.id"));
    expect(typeErrors(dir).join('\n')).toMatch(/Type 'string' is not assignable to type 'boolean'/);
  });
});
