/**
 * The product areas, in navigation order, each with its page (app.component.ts). An area joins
 * this list together with its page: the UI never shows an area that does not work.
 */

export const AREA_IDS = [
  'home',
  'connections',
  'library',
  'migrate',
  'history',
  'import',
  'export',
  'organizer',
  'sync',
  'generator',
  'snapshots',
  'shares',
  'plugins',
  'settings',
] as const;

export type AreaId = (typeof AREA_IDS)[number];

export interface Area {
  readonly id: AreaId;
  readonly label: string;
  /** One sentence shown under the page heading. */
  readonly summary: string;
  /** Instance administration: hidden from signed-in users of a hosted instance who are not admins (the API refuses them too). */
  readonly adminOnly?: boolean;
}

export const AREAS: readonly Area[] = [
  {
    id: 'home',
    label: 'Home',
    summary: 'Your accounts and their health, running and recent migrations, sync rules that need attention and reviews waiting, at a glance.',
  },
  {
    id: 'connections',
    label: 'Connections',
    summary: 'Connect your music service accounts so the engine can read and write playlists on your behalf. Tokens stay in the engine.',
  },
  {
    id: 'library',
    label: 'Library',
    summary: 'Every connected account’s playlists in one place: the same playlist grouped across services, how complete each copy is, and what was migrated where.',
  },
  {
    id: 'migrate',
    label: 'Migrate',
    summary: 'Copy a playlist from one service to another: import, match, review, then write.',
  },
  {
    id: 'history',
    label: 'History',
    summary: 'Every migration job with its live progress, per-track outcome and report.',
  },
  {
    id: 'import',
    label: 'Import',
    summary: 'Bring in playlists from files, public links or pasted text, preview them, then migrate them.',
  },
  {
    id: 'export',
    label: 'Export',
    summary: 'Save playlists as portable files you keep: from a connected account or an import, whole or only some tracks.',
  },
  {
    id: 'organizer',
    label: 'Organizer',
    summary: 'Tidy your library safely: remove playlists, delete ones you own, remove songs, review duplicates.',
  },
  {
    id: 'sync',
    label: 'Sync',
    summary: 'Keep a migrated playlist up to date with one-way scheduled sync rules.',
  },
  {
    id: 'generator',
    label: 'Generator',
    summary: 'Draft a playlist from a prompt with a language model you run locally: the model proposes songs, the engine finds them, you edit and approve.',
  },
  {
    id: 'snapshots',
    label: 'Snapshots',
    summary: 'Back up your library into verified archives: choose accounts and collections, take snapshots now or on a schedule, and restore them to any connected account.',
  },
  {
    id: 'shares',
    label: 'Shares',
    summary: 'Share a read-only, metadata-only copy of a playlist through a public link, and revoke it when you like.',
  },
  {
    id: 'plugins',
    label: 'Plugins',
    adminOnly: true,
    summary: 'Provider and file-format plugins, signed by their publishers and run in a sandbox.',
  },
  {
    id: 'settings',
    label: 'Settings',
    summary: 'How this engine is deployed and whether it asks for the owner secret.',
  },
];

/** Home; the Home page itself leads an engine with nothing connected on to Connections. */
export const DEFAULT_AREA: AreaId = 'home';

export function findArea(id: AreaId): Area {
  const area = AREAS.find((candidate) => candidate.id === id);
  if (!area) throw new Error(`unknown area ${id}`);
  return area;
}
