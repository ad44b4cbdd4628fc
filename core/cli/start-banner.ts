/** What the start banner says: where to open the engine, and what it runs with. */
export interface BannerFacts {
  url: string | undefined;
  version: string;
  roles: { http: boolean; worker: boolean };
  mode: 'self_host' | 'hosted';
  dataDir: string;
  embeddedDatabase: boolean;
  demo: boolean;
}

/**
 * The few lines a person sees when the engine starts in a terminal. The address to open comes
 * first and stands alone; nothing secret (the database URL, the owner secret) is named.
 */
export function startBanner(facts: BannerFacts): string {
  const rows: [string, string][] = [];
  if (facts.url) rows.push(['Open', facts.url]);
  rows.push(['Runs', facts.roles.http && facts.roles.worker ? 'web app, API and jobs' : facts.roles.http ? 'web app and API (jobs run in `opl worker`)' : 'jobs only (no web app here)']);
  rows.push(['Mode', facts.mode === 'hosted' ? 'hosted (allow-listed plugins only)' : 'self-host (one owner)']);
  rows.push(['Data', facts.dataDir]);
  rows.push(['Database', facts.embeddedDatabase ? 'embedded PostgreSQL, inside the data directory' : 'external PostgreSQL (OPL_DATABASE_URL)']);
  if (facts.demo) rows.push(['Demo', 'on: simulated Spotify and TIDAL with made-up libraries, no real accounts']);
  rows.push(['Stop', 'Ctrl-C']);
  const width = Math.max(...rows.map(([label]) => label.length)) + 3;
  return ['', `  Open Playlist Engine ${facts.version} is running.`, '', ...rows.map(([label, value]) => `  ${`${label}:`.padEnd(width)}${value}`), ''].join('\n') + '\n';
}
