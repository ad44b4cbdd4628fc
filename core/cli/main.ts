import { configEnvSchema } from '../config/index.ts';
import { loadConfigOrExit } from './config-or-exit.ts';

// Commands load their modules lazily: `opl config` or `opl openapi` must not pull in the database layer.
const runEngine = async (roles: { http: boolean; worker: boolean }) => {
  const config = loadConfigOrExit(); // before any heavy import, so a bad value fails fast
  return (await import('./run-engine.ts')).runEngine(config, roles);
};

const USAGE = `Usage: opl <command>

Engine:
  start          API + worker in one process (the single-user default)
  serve          API only; run workers separately against the same database
  worker         job worker only; run as many as you need
  db migrate     apply database migrations and exit
  dev            start + Vite's UI dev server with hot reload (proxying the API)

Tools:
  migrate        migrate playlists between services through a running engine (opl migrate --help)
  export         download playlists as files from a running engine (opl export --help)
  generate       a playlist proposed by the engine's language model, as a draft (opl generate --help)
  organize       remove from library, delete, remove songs, find duplicates — with a preflight (opl organize --help)
  sync           scheduled sync rules of a running engine: list, create, run, pause, resume (opl sync --help)
  config         validate the OPL_* environment and print the effective configuration
  config vars    list every OPL_* variable with its default and meaning
  snapshot       library snapshots: opl snapshot verify <archive.zip> checks an archive offline
  convert        convert a playlist file to another format offline (opl convert <file> --to <format>)
  plugin         plugin administration (list, allow-list, release, setup) and the opl-plugin authoring CLI
  openapi        print the OpenAPI document (--write updates core/http/openapi.json, --check fails on drift)
  help           this text
`;

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...args] = argv;
  switch (command) {
    case 'start':
      return runEngine({ http: true, worker: true });
    case 'serve':
      return runEngine({ http: true, worker: false });
    case 'worker':
      return runEngine({ http: false, worker: true });
    case 'dev':
      return (await import('./dev.command.ts')).devCommand(loadConfigOrExit());
    case 'migrate':
      return (await import('./migrate.command.ts')).migrateCommand(args, loadConfigOrExit());
    case 'export':
      return (await import('./export.command.ts')).exportCommand(args, loadConfigOrExit());
    case 'generate':
      return (await import('./generate.command.ts')).generateCommand(args, loadConfigOrExit());
    case 'organize':
      return (await import('./organize.command.ts')).organizeCommand(args, loadConfigOrExit());
    case 'sync':
      return (await import('./sync.command.ts')).syncCommand(args, loadConfigOrExit());
    case 'db':
      if (args[0] === 'migrate' && args.length === 1) return (await import('./db-migrate.command.ts')).dbMigrateCommand(loadConfigOrExit());
      process.stderr.write('Usage: opl db migrate   (apply database migrations and exit)\n');
      return 2;
    case 'config':
      if (args[0] === 'vars') {
        for (const [name, schema] of Object.entries(configEnvSchema.shape)) {
          process.stdout.write(`${name}\n    ${schema.description ?? ''}\n`);
        }
        return 0;
      } else {
        const config = loadConfigOrExit();
        const shown = { ...config, ownerSecret: config.ownerSecret ? '[set]' : undefined, adminToken: config.adminToken ? '[set]' : undefined, databaseUrl: config.databaseUrl ? '[set]' : undefined };
        process.stdout.write(`${JSON.stringify(shown, null, 2)}\n`);
        return 0;
      }
    case 'openapi':
      return (await import('./openapi.command.ts')).openApiCommand(args);
    case 'snapshot':
      return (await import('./snapshot.command.ts')).snapshotCommand(args, loadConfigOrExit());
    case 'convert':
      return (await import('./convert.command.ts')).convertCommand(args, loadConfigOrExit());
    case 'plugin':
      return (await import('./plugin.command.ts')).pluginCommand(args);
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(USAGE);
      return command === undefined ? 2 : 0;
    default:
      process.stderr.write(`opl: unknown command ${JSON.stringify(command)}\n\n${USAGE}`);
      return 2;
  }
}

process.exitCode = await main(process.argv.slice(2));
