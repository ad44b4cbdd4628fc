import { describe, expect, it } from 'vitest';
import { EXPORT_EXIT, exportCommand } from '../../../core/cli/export.command.ts';
import { EXPORT_USAGE } from '../../../core/cli/export/export-options.ts';
import { loadConfig } from '../../../core/config/index.ts';

/**
 * `opl export` mistakes that need no engine: they are usage errors (exit 64) that name the bad
 * value, and the help lists every exit code the command gives.
 */

const ACCOUNT = 'spotify:00000000-0000-4000-8000-000000000000';

async function exportRun(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await exportCommand(args, loadConfig({ OPL_LOG_LEVEL: 'silent' }), { stdout: { write: (text: string) => (stdout += text) }, stderr: { write: (text: string) => (stderr += text) } });
  return { code, stdout, stderr };
}

describe('opl export: usage', () => {
  it('refuses a --url that is no http(s) address as a usage error naming it', async () => {
    for (const url of ['notaurl', 'ftp://engine.example', 'localhost:8765']) {
      const result = await exportRun(['--source', ACCOUNT, '--format', 'csv', '--url', url]);
      expect(result.code, url).toBe(EXPORT_EXIT.usage);
      expect(result.stderr.split('\n')[0], url).toBe(`opl export: --url takes the engine's http:// or https:// address (e.g. http://127.0.0.1:8765); not ${JSON.stringify(url)}.`);
      expect(result.stdout).toBe('');
    }
  });

  it('lists the exit code of an interrupted export in its help', async () => {
    const help = await exportRun(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toBe(EXPORT_USAGE);
    expect(help.stdout).toContain(`${EXPORT_EXIT.interrupted} interrupted`);
  });
});
