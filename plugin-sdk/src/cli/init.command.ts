import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { keyIdSchema, pluginIdSchema } from '../manifest.schema.ts';
import { jsonText, listFilesInside, PluginToolError } from '../tools/index.ts';
import { parseCommandArgs, pathFrom, requiredOption, requiredPositional, stringOption } from './cli-args.ts';
import { EXIT_OK, type PluginCliIo, UsageError } from './cli-io.ts';

export const INIT_USAGE = 'opl-plugin init <dir> --id <plugin-id> --name <name> --kind provider|format [--publisher <name>] [--key-id <id>]';

const TEMPLATES_DIR = fileURLToPath(new URL('../../templates/', import.meta.url));
const SDK_PACKAGE_JSON = fileURLToPath(new URL('../../package.json', import.meta.url));

/** Template file names → project file names: `.tmpl` keeps TypeScript tooling off templates; npm drops dotfiles from packages. */
function targetName(path: string): string {
  const withoutSuffix = path.replace(/\.tmpl$/, '');
  return withoutSuffix === 'gitignore' ? '.gitignore' : withoutSuffix;
}

function replaceIn(value: unknown, replacements: Readonly<Record<string, string>>): unknown {
  if (typeof value === 'string') return Object.entries(replacements).reduce((text, [from, to]) => text.replaceAll(from, to), value);
  if (Array.isArray(value)) return value.map((item) => replaceIn(item, replacements));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, replaceIn(item, replacements)]));
  return value;
}

/** `com.example.my-music` → `my_music`: the provider's short name, a valid `provider.name`. */
export function shortNameFor(id: string): string {
  const last = (id.split('.').pop() ?? '').replace(/-/g, '_').replace(/[^a-z0-9_]/g, '');
  const name = /^[a-z]/.test(last) ? last : `p_${last}`;
  return name.length >= 2 ? name.slice(0, 40) : 'plugin';
}

/** Writes a new plugin project from the SDK's template for the kind. */
export async function initCommand(args: readonly string[], io: PluginCliIo): Promise<number> {
  const parsed = parseCommandArgs(args, { id: { type: 'string' }, name: { type: 'string' }, kind: { type: 'string' }, publisher: { type: 'string' }, 'key-id': { type: 'string' } }, 1);
  const dir = pathFrom(io.cwd, requiredPositional(parsed, 0, 'The project directory'));
  const id = requiredOption(parsed, 'id');
  if (!pluginIdSchema.safeParse(id).success) throw new UsageError(`--id "${id}" is not a plugin id: use a lowercase dotted id such as "com.example.my-provider".`);
  const name = requiredOption(parsed, 'name').trim();
  if (name === '' || name.length > 100) throw new UsageError('--name must be 1 to 100 characters.');
  const kind = requiredOption(parsed, 'kind');
  if (kind !== 'provider' && kind !== 'format') throw new UsageError(`--kind must be "provider" or "format", not "${kind}".`);
  const keyId = stringOption(parsed, 'key-id') ?? id.replace(/[._]/g, '-').slice(0, 60);
  if (!keyIdSchema.safeParse(keyId).success) throw new UsageError(`--key-id "${keyId}" is not a key id: use 3 to 64 lowercase letters, digits and dashes.`);
  const publisher = (stringOption(parsed, 'publisher') ?? 'Your Name').trim();

  const existing = await listFilesInside(dir);
  if (existing.length > 0) throw new PluginToolError(`${dir} is not empty (${existing.slice(0, 3).join(', ')}${existing.length > 3 ? ', …' : ''}); init only writes into a new or empty directory.`);

  const sdkVersion = (JSON.parse(await readFile(SDK_PACKAGE_JSON, 'utf8')) as { version: string }).version;
  const replacements = {
    __PLUGIN_ID__: id,
    __PLUGIN_NAME__: name,
    __PROVIDER_NAME__: shortNameFor(id),
    __PUBLISHER__: publisher,
    __KEY_ID__: keyId,
    __PACKAGE_NAME__: id.replace(/\./g, '-'),
    __SDK_VERSION__: sdkVersion,
  };
  const templateDir = join(TEMPLATES_DIR, kind);
  const written: string[] = [];
  for (const entry of await readdir(templateDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const source = join(entry.parentPath, entry.name);
    const path = relative(templateDir, source);
    const target = join(dir, targetName(path));
    const text = await readFile(source, 'utf8');
    // JSON is rewritten value by value, so a name with quotes or backslashes stays valid JSON.
    const content = path.endsWith('.json') ? jsonText(replaceIn(JSON.parse(text), replacements)) : (replaceIn(text, replacements) as string);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, content, { flag: 'wx' });
    written.push(relative(dir, target));
  }
  io.stdout.write(
    `Created the ${kind} plugin ${id} in ${dir}:\n${written.sort().map((path) => `  ${path}\n`).join('')}` +
      `Next: edit plugin.json and src/index.ts, then run \`opl-plugin build ${relative(io.cwd, dir) || '.'}\`.\n`,
  );
  return EXIT_OK;
}
