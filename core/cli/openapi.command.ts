import { SignInThrottle } from '../services/sign-in/index.ts';
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { ENGINE_VERSION } from '../app/version.ts';
import { loadConfig } from '../config/index.ts';
import { buildHttpServer } from '../http/http-server.ts';
import { openApiDocument } from '../http/openapi.ts';
import { createLogger } from '../logging/logger.ts';
import { OwnerSessionService } from '../services/owner/owner-session.service.ts';

export const OPENAPI_FILE = fileURLToPath(new URL('../http/openapi.json', import.meta.url));

/**
 * Builds the OpenAPI document from the route schemas without touching a database: the route
 * handlers are never called, so their dependencies refuse to run.
 */
export async function generateOpenApi(): Promise<string> {
  const unreachable = async (): Promise<never> => {
    throw new Error('the OpenAPI generator has no database');
  };
  const http = await buildHttpServer({
    config: loadConfig({}),
    logger: createLogger({ level: 'silent' }),
    version: ENGINE_VERSION,
    readiness: [],
    ownerSessions: new OwnerSessionService({ execute: unreachable, ownerSecret: undefined, ttlHours: 1 }),
    signInThrottle: new SignInThrottle({ execute: unreachable }),
    pluginAdmin: { providers: () => [], view: unreachable, reload: unreachable, addAllowListEntry: unreachable, removeAllowListEntry: unreachable, release: unreachable },
    uiDistDir: '/nonexistent',
  });
  try {
    return `${JSON.stringify(openApiDocument(http), null, 2)}\n`;
  } finally {
    await http.close();
  }
}

/** `opl openapi` prints the document; `--write` updates the checked-in copy; `--check` fails on drift. */
export async function openApiCommand(args: readonly string[]): Promise<number> {
  const document = await generateOpenApi();
  if (args.includes('--write')) {
    await writeFile(OPENAPI_FILE, document);
    process.stdout.write(`wrote ${OPENAPI_FILE}\n`);
    return 0;
  }
  if (args.includes('--check')) {
    const current = await readFile(OPENAPI_FILE, 'utf8').catch(() => '');
    if (current === document) return 0;
    process.stderr.write(`${OPENAPI_FILE} is out of date with the route schemas; run \`npm run openapi\` and commit the result.\n`);
    return 1;
  }
  process.stdout.write(document);
  return 0;
}
