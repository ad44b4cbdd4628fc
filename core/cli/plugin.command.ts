import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runPluginCli, type PluginCliIo } from '@opl/plugin-sdk/cli';
import type { Config } from '../config/index.ts';
import type { PluginAdmin } from '../services/plugins/plugin-admin.service.ts';
import { loadConfigOrExit } from './config-or-exit.ts';

const INSTALL_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Where setup keeps the locally generated first-party publisher key. */
export const FIRST_PARTY_KEY_FILE = join(INSTALL_ROOT, '.opl-local', 'first-party-publisher.key.json');

const ADMIN_USAGE = `Engine plugin administration (uses the OPL_* configuration and the database):
  opl plugin list                                   loaded and refused plugins, with reasons
  opl plugin allow list                             the hosted allow-list
  opl plugin allow add <plugin-id> <key-id> <range> allow a plugin (e.g. ^1.2.0) on a hosted instance
  opl plugin allow remove <entry-id>                remove an allow-list entry
  opl plugin release <plugin-id>                    release a quarantined plugin
  opl plugin setup                                  build, sign and publish the first-party plugins with the local key

Plugin authoring (the opl-plugin CLI of @opl/plugin-sdk):
  opl plugin init | build | keygen | sign | verify | publish | trust | endorse | test   (opl plugin help)
`;

const ADMIN_COMMANDS = new Set(['list', 'allow', 'release', 'setup']);

function processIo(): PluginCliIo {
  return { stdout: process.stdout, stderr: process.stderr, cwd: process.cwd() };
}

async function withAdmin<T>(config: Config, action: (admin: PluginAdmin) => Promise<T>): Promise<T> {
  const { createApp } = await import('../app/create-app.ts');
  const app = await createApp(config, { http: false, worker: false });
  try {
    return await action(app.services.plugins.admin);
  } finally {
    await app.stop();
  }
}

/** `opl plugin …`: admin commands against this instance, everything else goes to opl-plugin. */
export async function pluginCommand(args: readonly string[]): Promise<number> {
  const [sub, ...rest] = args;
  const io = processIo();
  if (sub === undefined || !ADMIN_COMMANDS.has(sub)) {
    if (sub === undefined || sub === 'help' || sub === '--help') io.stdout.write(ADMIN_USAGE);
    if (sub === undefined) return 64;
    return runPluginCli([...args], io);
  }

  const config = loadConfigOrExit();
  switch (sub) {
    case 'setup': {
      if (config.plugins.registry.source !== 'directory') {
        io.stderr.write('opl plugin setup publishes into a local registry directory, but OPL_REGISTRY_URL points to a remote registry.\n');
        return 1;
      }
      const { setupFirstPartyPlugins } = await import('./first-party-setup.ts');
      const published = await setupFirstPartyPlugins({
        installRoot: INSTALL_ROOT,
        registryDir: config.plugins.registry.location,
        trustFile: config.plugins.trustFile,
        keyFile: FIRST_PARTY_KEY_FILE,
        io: { ...io, stdout: { write: () => true } },
      });
      io.stdout.write(`Published ${published.length} first-party plugin(s) into ${config.plugins.registry.location}: ${published.join(', ') || 'none'}\n`);
      return 0;
    }
    case 'list':
      return withAdmin(config, async (admin) => {
        const view = await admin.view();
        io.stdout.write(`Registry: ${view.registry.location} (${view.registry.source})${view.registry.error ? `\n  error: ${view.registry.error}` : ''}\n`);
        io.stdout.write(`Loaded (${view.loaded.length}):\n`);
        for (const plugin of view.loaded) {
          io.stdout.write(`  ${plugin.id}@${plugin.version}  ${plugin.kind}  key ${plugin.publisher.key_id}${plugin.signed ? '' : '  UNSIGNED (development only)'}${plugin.test_only_key ? '  TEST-ONLY KEY' : ''}\n`);
        }
        io.stdout.write(`Refused (${view.refused.length}):\n`);
        for (const plugin of view.refused) io.stdout.write(`  ${plugin.id}@${plugin.version ?? '?'}  ${plugin.reason}: ${plugin.detail}\n`);
        return 0;
      });
    case 'release': {
      const pluginId = rest[0];
      if (!pluginId) {
        io.stderr.write(ADMIN_USAGE);
        return 64;
      }
      return withAdmin(config, async (admin) => {
        if (!(await admin.release(pluginId))) {
          io.stderr.write(`${pluginId} is not quarantined.\n`);
          return 1;
        }
        io.stdout.write(`Released ${pluginId}; it loads again if it passes every other check.\n`);
        return 0;
      });
    }
    case 'allow': {
      const [action, ...params] = rest;
      if (action === 'list') {
        return withAdmin(config, async (admin) => {
          const view = await admin.view();
          for (const entry of view.allow_list) io.stdout.write(`${entry.id}  ${entry.plugin_id}  key ${entry.key_id}  ${entry.version_range}  added by ${entry.added_by} at ${entry.created_at}\n`);
          if (view.allow_list.length === 0) io.stdout.write('The allow-list is empty.\n');
          return 0;
        });
      }
      if (action === 'add' && params.length === 3) {
        const [pluginId, keyId, versionRange] = params as [string, string, string];
        const { validateAllowListEntry } = await import('../services/plugins/allow-list-entry.ts');
        const problem = validateAllowListEntry({ pluginId, keyId, versionRange });
        if (problem) {
          io.stderr.write(`${problem}\n`);
          return 64;
        }
        return withAdmin(config, async (admin) => {
          const entry = await admin.addAllowListEntry({ pluginId, keyId, versionRange, addedBy: 'cli' });
          if (!entry) {
            io.stderr.write('The allow-list already has this entry.\n');
            return 1;
          }
          io.stdout.write(`Added ${entry.id}: ${entry.plugin_id} key ${entry.key_id} ${entry.version_range}\n`);
          return 0;
        });
      }
      if (action === 'remove' && params.length === 1) {
        return withAdmin(config, async (admin) => {
          if (!(await admin.removeAllowListEntry(params[0] ?? ''))) {
            io.stderr.write(`There is no allow-list entry ${params[0] ?? ''}.\n`);
            return 1;
          }
          io.stdout.write(`Removed ${params[0] ?? ''}.\n`);
          return 0;
        });
      }
      io.stderr.write(ADMIN_USAGE);
      return 64;
    }
    default:
      return 64;
  }
}
