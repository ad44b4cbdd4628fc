import { PluginToolError } from '../tools/index.ts';
import { BUILD_USAGE } from './build.command.ts';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, type PluginCliCommand, type PluginCliIo, UsageError } from './cli-io.ts';
import { ENDORSE_USAGE } from './endorse.command.ts';
import { INIT_USAGE } from './init.command.ts';
import { KEYGEN_USAGE } from './keygen.command.ts';
import { PUBLISH_USAGE } from './publish.command.ts';
import { REVOKE_USAGE } from './revoke.command.ts';
import { SIGN_USAGE } from './sign.command.ts';
import { TRUST_USAGE } from './trust.command.ts';
import { VERIFY_USAGE } from './verify.command.ts';

/**
 * `opl-plugin <command>`: the publisher's CLI, also reachable from the engine as `opl plugin …`.
 * Commands load lazily (Vite only for `build`, the sandbox only for `test`).
 */

const TEST_USAGE = 'opl-plugin test [project-dir] …   (runs the plugin in the real sandbox against fixtures or a fake server)';

interface CommandEntry {
  usage: string;
  summary: string;
  load: () => Promise<PluginCliCommand>;
}

/** `test` lives in test.command.ts with the sandbox; loaded only when asked for (isolated-vm is heavy). */
async function loadTestCommand(): Promise<PluginCliCommand> {
  return (await import('./test.command.ts')).testCommand;
}

export const PLUGIN_CLI_COMMANDS: Readonly<Record<string, CommandEntry>> = {
  init: { usage: INIT_USAGE, summary: 'create a plugin project from a template', load: async () => (await import('./init.command.ts')).initCommand },
  build: { usage: BUILD_USAGE, summary: 'bundle the plugin with Vite into an unsigned bundle', load: async () => (await import('./build.command.ts')).buildCommand },
  keygen: { usage: KEYGEN_USAGE, summary: 'generate an ed25519 publisher key pair', load: async () => (await import('./keygen.command.ts')).keygenCommand },
  sign: { usage: SIGN_USAGE, summary: 'sign a built bundle', load: async () => (await import('./sign.command.ts')).signCommand },
  verify: { usage: VERIFY_USAGE, summary: 'verify a bundle as the engine would', load: async () => (await import('./verify.command.ts')).verifyCommand },
  test: { usage: TEST_USAGE, summary: 'run the plugin in the sandbox against fixtures', load: loadTestCommand },
  publish: { usage: PUBLISH_USAGE, summary: 'copy a signed bundle into a registry directory', load: async () => (await import('./publish.command.ts')).publishCommand },
  trust: { usage: TRUST_USAGE, summary: 'add, revoke or list keys in a local trust store', load: async () => (await import('./trust.command.ts')).trustCommand },
  endorse: { usage: ENDORSE_USAGE, summary: 'endorse a new key with the old one (key rotation)', load: async () => (await import('./endorse.command.ts')).endorseCommand },
  revoke: { usage: REVOKE_USAGE, summary: "revoke a key in a registry's keys/ (publisher side)", load: async () => (await import('./revoke.command.ts')).revokeCommand },
};

export function pluginCliUsage(program = 'opl-plugin'): string {
  const width = Math.max(...Object.keys(PLUGIN_CLI_COMMANDS).map((name) => name.length));
  const lines = Object.entries(PLUGIN_CLI_COMMANDS).map(([name, entry]) => `  ${name.padEnd(width)}  ${entry.summary}`);
  return `Usage: ${program} <command> [options]\n\nCommands:\n${lines.join('\n')}\n\nRun \`${program} help <command>\` for a command's options. Exit codes: 0 ok, 1 refused or failed, 64 usage.\n`;
}

function commandUsage(entry: CommandEntry, program: string): string {
  return `Usage:\n  ${entry.usage.replaceAll('opl-plugin', program)}\n`;
}

/**
 * Runs one CLI invocation. `argv` excludes the program name (`['sign', 'dist', '--key', 'k.json']`);
 * returns the exit code. `program` is how usage text names the CLI (`opl plugin` from the engine).
 */
export async function runPluginCli(argv: readonly string[], io: PluginCliIo, options: { program?: string } = {}): Promise<number> {
  const program = options.program ?? 'opl-plugin';
  const [name, ...args] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    const topic = name === 'help' ? args[0] : undefined;
    const entry = topic === undefined ? undefined : PLUGIN_CLI_COMMANDS[topic];
    if (topic !== undefined && !entry) {
      io.stderr.write(`${program}: unknown command ${JSON.stringify(topic)}\n\n${pluginCliUsage(program)}`);
      return EXIT_USAGE;
    }
    io.stdout.write(entry && topic ? commandUsage(entry, program) : pluginCliUsage(program));
    return name === undefined ? EXIT_USAGE : EXIT_OK;
  }
  const entry = Object.hasOwn(PLUGIN_CLI_COMMANDS, name) ? PLUGIN_CLI_COMMANDS[name] : undefined;
  if (!entry) {
    io.stderr.write(`${program}: unknown command ${JSON.stringify(name)}\n\n${pluginCliUsage(program)}`);
    return EXIT_USAGE;
  }
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout.write(commandUsage(entry, program));
    return EXIT_OK;
  }
  try {
    const command = await entry.load();
    return await command(args, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`${program} ${name}: ${error.message}\n\n${commandUsage(entry, program)}`);
      return EXIT_USAGE;
    }
    if (error instanceof PluginToolError) {
      io.stderr.write(`${program} ${name}: ${error.reason ? `(${error.reason}) ` : ''}${error.message}\n`);
      return EXIT_FAILED;
    }
    const failure = error as Error;
    io.stderr.write(`${program} ${name} failed unexpectedly: ${failure.stack ?? String(failure)}\n`);
    return EXIT_FAILED;
  }
}
