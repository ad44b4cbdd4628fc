import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { validateAllowListEntry } from '../../services/plugins/allow-list-entry.ts';
import type { PluginAdminApi } from '../../services/plugins/plugin-admin.service.ts';
import { AppError, problemResponse } from '../errors/index.ts';
import { adminName, requireAdmin, type AdminPolicy } from '../owner/admin-gate.ts';

const grantSchema = z.object({ origin: z.string(), path_prefix: z.string(), methods: z.array(z.string()), reason: z.string() });

const providerViewSchema = z
  .object({
    name: z.string(),
    display_name: z.string(),
    plugin: z.object({ id: z.string(), version: z.string(), signed: z.boolean() }),
    auth_kinds: z.array(z.string()),
    official: z.boolean(),
    stability: z.string(),
    has_isrc: z.boolean(),
    search_modes: z.array(z.string()),
    capabilities: z.array(z.string()),
    can_source: z.boolean(),
    can_target: z.boolean(),
    can_mirror: z.boolean(),
    mirror_unavailable_reason: z.string().nullable().describe('Actionable reason shown when mirror is unavailable'),
    can_remove_tracks: z.boolean(),
    can_unfollow_playlist: z.boolean(),
    can_delete_playlist: z.boolean(),
    max_add_batch: z.number().int(),
    max_remove_batch: z.number().int(),
    max_playlist_size: z.number().int().nullable(),
    supports_duplicates: z.boolean(),
    ordering: z.string(),
    description_max_len: z.number().int().nullable(),
    liked_tracks: z.object({ read: z.boolean() }),
    saved_albums: z.object({ read: z.boolean(), write: z.boolean() }),
    followed_artists: z.object({ read: z.boolean(), write: z.boolean() }),
    pacing: z.object({ search_quota_cost: z.number(), write_quota_cost: z.number(), daily_quota: z.number().int().nullable() }),
    warning: z.string().nullable(),
    demo: z.boolean().describe('Served by a simulated demo provider (OPL_DEMO); no real account is touched'),
    connectable: z.boolean(),
    connect_unavailable_reason: z.string().nullable().describe('Why no account can be connected (e.g. no OAuth client configured)'),
  })
  .meta({ id: 'ProviderView' });

const allowListEntrySchema = z
  .object({
    id: z.string(),
    plugin_id: z.string(),
    key_id: z.string(),
    version_range: z.string(),
    added_by: z.string(),
    created_at: z.string(),
  })
  .meta({ id: 'AllowListEntry' });

const pluginAdminViewSchema = z
  .object({
    mode: z.enum(['self_host', 'hosted']),
    allow_unsigned: z.boolean().describe('The development flag OPL_PLUGIN_ALLOW_UNSIGNED is on'),
    registry: z.object({ source: z.enum(['directory', 'https']), location: z.string(), error: z.string().nullable() }),
    loaded: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        version: z.string(),
        kind: z.enum(['provider', 'format']),
        publisher: z.object({ name: z.string(), key_id: z.string() }),
        signed: z.boolean(),
        test_only_key: z.boolean(),
        capabilities: z.array(z.string()),
        network: z.array(grantSchema),
      }),
    ),
    refused: z.array(
      z.object({ id: z.string(), version: z.string().nullable(), reason: z.string(), detail: z.string(), key_id: z.string().nullable() }),
    ),
    allow_list: z.array(allowListEntrySchema),
    refreshed_at: z.string().nullable(),
  })
  .meta({ id: 'PluginAdminView' });

const allowListInputSchema = z
  .object({
    plugin_id: z.string().min(1).max(100).describe('Plugin id, e.g. com.example.my-provider'),
    key_id: z.string().min(1).max(64).describe('Id of the publisher key that must have signed it'),
    version_range: z.string().min(1).max(100).describe('Semver range of admitted versions, e.g. ^1.2.0'),
  })
  .strict();

export interface PluginRoutesOptions {
  admin: PluginAdminApi;
  policy: AdminPolicy;
  /** What the connection machinery knows about a provider (demo, connectable). */
  connectInfo?: (provider: string) => { demo: boolean; connectable: boolean; reason: string | null };
}

const adminErrors = {
  401: problemResponse('Owner session or admin token required'),
  403: problemResponse('Admin access is not configured on this hosted instance'),
};

export const pluginRoutes: FastifyPluginAsyncZod<PluginRoutesOptions> = async (app, { admin, policy, connectInfo }) => {
  app.get(
    '/providers',
    {
      schema: {
        tags: ['plugins'],
        summary: 'Capability matrix of the loaded provider plugins, including can_mirror and its reason',
        response: { 200: z.object({ providers: z.array(providerViewSchema) }) },
      },
    },
    async () => ({
      providers: admin.providers().map((view) => {
        const info = connectInfo?.(view.name);
        return info ? { ...view, demo: info.demo, connectable: info.connectable, connect_unavailable_reason: info.reason } : view;
      }),
    }),
  );

  app.get(
    '/api/admin/plugins',
    {
      schema: {
        tags: ['admin'],
        summary: 'Loaded plugins, refused plugins with their reasons, and the hosted allow-list',
        response: { 200: pluginAdminViewSchema, ...adminErrors },
      },
    },
    async (request) => {
      await requireAdmin(request, policy);
      return admin.view();
    },
  );

  app.post(
    '/api/admin/plugins/reload',
    {
      schema: {
        tags: ['admin'],
        summary: 'Re-read the registry and trust store and apply the trust policy again',
        response: { 200: pluginAdminViewSchema, ...adminErrors },
      },
    },
    async (request) => {
      await requireAdmin(request, policy);
      await admin.reload();
      return admin.view();
    },
  );

  app.post(
    '/api/admin/plugins/allow-list',
    {
      schema: {
        tags: ['admin'],
        summary: 'Allow a plugin (id, signing key id, semver range) on a hosted instance',
        body: allowListInputSchema,
        response: { 201: allowListEntrySchema, 400: problemResponse('Invalid entry'), 409: problemResponse('The same entry exists'), ...adminErrors },
      },
    },
    async (request, reply) => {
      const who = await requireAdmin(request, policy);
      const candidate = { pluginId: request.body.plugin_id, keyId: request.body.key_id, versionRange: request.body.version_range };
      const problem = validateAllowListEntry(candidate);
      if (problem) throw new AppError('validation_failed', problem);
      const entry = await admin.addAllowListEntry({ ...candidate, addedBy: adminName(who) });
      if (!entry) throw new AppError('conflict', 'The allow-list already has this plugin id, key id and version range.');
      return reply.status(201).send(entry);
    },
  );

  app.delete(
    '/api/admin/plugins/allow-list/:id',
    {
      schema: {
        tags: ['admin'],
        summary: 'Remove an allow-list entry (plugins it admitted are unloaded)',
        params: z.object({ id: z.string().max(100) }),
        response: { 204: z.null(), 404: problemResponse('No such entry'), ...adminErrors },
      },
    },
    async (request, reply) => {
      await requireAdmin(request, policy);
      if (!(await admin.removeAllowListEntry(request.params.id))) throw new AppError('not_found', 'There is no allow-list entry with this id.');
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/admin/plugins/:pluginId/release',
    {
      schema: {
        tags: ['admin'],
        summary: 'Release a quarantined plugin so it loads again',
        params: z.object({ pluginId: z.string().max(100) }),
        response: { 200: pluginAdminViewSchema, 404: problemResponse('The plugin is not quarantined'), ...adminErrors },
      },
    },
    async (request) => {
      await requireAdmin(request, policy);
      if (!(await admin.release(request.params.pluginId))) throw new AppError('not_found', `${request.params.pluginId} is not quarantined.`);
      return admin.view();
    },
  );
};
