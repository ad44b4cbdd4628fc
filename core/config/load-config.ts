import { configEnvSchema, toConfig, type Config } from './config.schema.ts';

/** Raised when the environment holds invalid `OPL_*` values; lists every problem at once. */
export class ConfigError extends Error {
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/**
 * Parses the `OPL_*` variables of `env`. Unknown `OPL_*` names are reported too, because a typo
 * (`OPL_PROT=9000`) silently falling back to a default is worse than refusing to start.
 */
export function loadConfig(env: Record<string, string | undefined>, cwd: string = process.cwd()): Config {
  const known = new Set(Object.keys(configEnvSchema.shape));
  const relevant: Record<string, string> = {};
  const problems: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (!name.startsWith('OPL_') || value === undefined) continue;
    if (!known.has(name)) {
      problems.push(`${name}: unknown variable (known: ${[...known].sort().join(', ')})`);
      continue;
    }
    if (value.trim() === '') continue; // an empty variable means "use the default"
    relevant[name] = value;
  }
  const parsed = configEnvSchema.safeParse(relevant);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const name = issue.path.join('.') || 'configuration';
      const shown = relevant[name] !== undefined && !/SECRET|URL/.test(name) ? ` (got ${JSON.stringify(relevant[name])})` : '';
      problems.push(`${name}: ${issue.message}${shown}`);
    }
  }
  if (problems.length > 0 || !parsed.success) throw new ConfigError(problems);
  return toConfig(parsed.data, cwd);
}
