import { ConfigError, loadConfig, type Config } from '../config/index.ts';

/** Exit code for an invalid configuration (sysexits EX_CONFIG). */
export const EXIT_CONFIG = 78;

/** Parses the environment; on bad values prints every problem and exits before anything starts. */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`opl: ${error.message}\nSee \`opl config vars\` or the README's configuration table.\n`);
      process.exit(EXIT_CONFIG);
    }
    throw error;
  }
}
