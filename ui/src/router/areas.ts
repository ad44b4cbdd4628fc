/**
 * The product areas, in navigation order. Every area works in this version (Connections, Library,
 * Migrate, History, Import, Export, Organizer, Sync, Generator, Snapshots, Shares, Plugins and
 * Settings); an area that did not would describe what it will do, so the UI never pretends a feature exists.
 */

export const AREA_IDS = [
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
  /** What the area will offer once built. */
  readonly plans: readonly string[];
  readonly available: boolean;
}

export const AREAS: readonly Area[] = [
  {
    id: 'connections',
    label: 'Connections',
    summary: 'Connect your music service accounts so the engine can read and write playlists on your behalf. Tokens stay in the engine.',
    plans: [],
    available: true,
  },
  {
    id: 'library',
    label: 'Library',
    summary: 'Every connected account’s playlists in one place: the same playlist grouped across services, how complete each copy is, and what was migrated where.',
    plans: [],
    available: true,
  },
  {
    id: 'migrate',
    label: 'Migrate',
    summary: 'Copy a playlist from one service to another: import, match, review, then write.',
    plans: [
      'Choose a source playlist and a target account, and see the route before anything starts.',
      'Tracks are matched by ISRC first, then by provider links and careful fuzzy matching.',
      'Low-confidence matches wait for your review; nothing is created on the target until then.',
      'Safe defaults limit how much is written per job and per day; going past them needs your explicit acknowledgement.',
    ],
    available: true,
  },
  {
    id: 'history',
    label: 'History',
    summary: 'Every migration job with its live progress, per-track outcome and report.',
    plans: [
      'Follow running jobs track by track.',
      'Read why a track was skipped, matched or left out, and retry what failed.',
      'Download a job report and see totals across all jobs.',
    ],
    available: true,
  },
  {
    id: 'import',
    label: 'Import',
    summary: 'Bring in playlists from files, public links or pasted text, preview them, then migrate them.',
    plans: [
      'Upload TXT, CSV, M3U/M3U8, PLS, WPL, XSPF, XML or Open Playlist JSON files.',
      'Paste a list of "artist - title" lines or a public playlist link from a supported host.',
      'Preview the parsed tracks with line-by-line issues before anything is matched.',
    ],
    available: true,
  },
  {
    id: 'export',
    label: 'Export',
    summary: 'Save playlists as portable files you keep: from a connected account or an import, whole or only some tracks.',
    plans: [],
    available: true,
  },
  {
    id: 'organizer',
    label: 'Organizer',
    summary: 'Tidy your library safely: remove playlists, delete ones you own, remove songs, review duplicates.',
    plans: [],
    available: true,
  },
  {
    id: 'sync',
    label: 'Sync',
    summary: 'Keep a migrated playlist up to date with one-way scheduled sync rules.',
    plans: [],
    available: true,
  },
  {
    id: 'generator',
    label: 'Generator',
    summary: 'Draft a playlist from a prompt with a language model you run locally: the model proposes songs, the engine finds them, you edit and approve.',
    plans: [],
    available: true,
  },
  {
    id: 'snapshots',
    label: 'Snapshots',
    summary: 'Back up your library into verified archives: choose accounts and collections, take snapshots now or on a schedule, and restore them to any connected account.',
    plans: [],
    available: true,
  },
  {
    id: 'shares',
    label: 'Shares',
    summary: 'Share a read-only, metadata-only copy of a playlist through a public link, and revoke it when you like.',
    plans: [],
    available: true,
  },
  {
    id: 'plugins',
    label: 'Plugins',
    summary: 'Provider and file-format plugins, signed by their publishers and run in a sandbox.',
    plans: [],
    available: true,
  },
  {
    id: 'settings',
    label: 'Settings',
    summary: 'How this engine is deployed and whether it asks for the owner secret.',
    plans: [],
    available: true,
  },
];

export const DEFAULT_AREA: AreaId = 'connections';

export function findArea(id: AreaId): Area {
  const area = AREAS.find((candidate) => candidate.id === id);
  if (!area) throw new Error(`unknown area ${id}`);
  return area;
}
