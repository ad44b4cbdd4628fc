import { describe, expect, it } from 'vitest';
import { startBanner } from './start-banner.ts';

describe('startBanner', () => {
  it('leads with the address to open and says the mode, data directory, database and demo', () => {
    const banner = startBanner({ url: 'http://127.0.0.1:8765', version: '1.2.3', roles: { http: true, worker: true }, mode: 'self_host', dataDir: '/srv/opl', embeddedDatabase: true, demo: true });
    expect(banner.split('\n')).toEqual([
      '',
      '  Open Playlist Engine 1.2.3 is running.',
      '',
      '  Open:      http://127.0.0.1:8765',
      '  Runs:      web app, API and jobs',
      '  Mode:      self-host (one owner)',
      '  Data:      /srv/opl',
      '  Database:  embedded PostgreSQL, inside the data directory',
      '  Demo:      on: simulated Spotify and TIDAL with made-up libraries, no real accounts',
      '  Stop:      Ctrl-C',
      '',
      '',
    ]);
  });

  it('a worker has no address, and hosted mode on an external database says so', () => {
    const banner = startBanner({ url: undefined, version: '1.2.3', roles: { http: false, worker: true }, mode: 'hosted', dataDir: '/d', embeddedDatabase: false, demo: false });
    expect(banner).not.toContain('Open:');
    expect(banner).not.toContain('Demo:');
    expect(banner).toContain('Runs:      jobs only (no web app here)');
    expect(banner).toContain('Mode:      hosted (allow-listed plugins only)');
    expect(banner).toContain('Database:  external PostgreSQL (OPL_DATABASE_URL)');
  });
});
