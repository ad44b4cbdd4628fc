import { describe, expect, it } from 'vitest';
import { AREA_IDS, AREAS, DEFAULT_AREA, findArea } from '../../../ui/src/router/areas.ts';
import { hrefFor, resolveHash, sameRoute } from '../../../ui/src/router/route.ts';

describe('areas', () => {
  it('lists the fourteen areas in navigation order', () => {
    expect(AREAS.map((area) => area.label)).toEqual([
      'Home',
      'Connections',
      'Library',
      'Migrate',
      'History',
      'Import',
      'Export',
      'Organizer',
      'Sync',
      'Generator',
      'Snapshots',
      'Shares',
      'Plugins',
      'Settings',
    ]);
    expect(AREAS.map((area) => area.id)).toEqual([...AREA_IDS]);
  });

  it('describes every area in a sentence under its heading', () => {
    for (const area of AREAS) expect(area.summary.length, area.id).toBeGreaterThan(20);
  });

  it('finds an area by id', () => {
    expect(findArea('sync').label).toBe('Sync');
  });
});

describe('hash routes', () => {
  it('links areas as #/<id>', () => {
    expect(hrefFor('migrate')).toBe('#/migrate');
  });

  it('sends an empty hash to the default area', () => {
    for (const hash of ['', '#', '#/', '#//']) {
      expect(resolveHash(hash)).toEqual({ route: { kind: 'area', area: DEFAULT_AREA }, canonicalHash: '#/home' });
    }
    expect(DEFAULT_AREA).toBe('home');
  });

  it('accepts an area in canonical and sloppy spellings', () => {
    for (const hash of ['#/migrate', '#migrate', '#/Migrate/', '#/migrate?from=spotify', '#/MIGRATE#top', '#/%6Digrate']) {
      expect(resolveHash(hash), hash).toEqual({ route: { kind: 'area', area: 'migrate' }, canonicalHash: '#/migrate' });
    }
  });

  it('reports unknown paths without rewriting them', () => {
    expect(resolveHash('#/nope')).toEqual({ route: { kind: 'not-found', path: '/nope' }, canonicalHash: '#/nope' });
    expect(resolveHash('#/settings/advanced')).toEqual({
      route: { kind: 'not-found', path: '/settings/advanced' },
      canonicalHash: '#/settings/advanced',
    });
    expect(resolveHash('#/%E0%A4%A')).toEqual({ route: { kind: 'not-found', path: '/%E0%A4%A' }, canonicalHash: '#/%E0%A4%A' });
  });

  it('treats properties of Object.prototype as unknown', () => {
    expect(resolveHash('#/constructor').route.kind).toBe('not-found');
  });

  it('compares routes', () => {
    expect(sameRoute({ kind: 'area', area: 'sync' }, { kind: 'area', area: 'sync' })).toBe(true);
    expect(sameRoute({ kind: 'area', area: 'sync' }, { kind: 'area', area: 'shares' })).toBe(false);
    expect(sameRoute({ kind: 'not-found', path: '/a' }, { kind: 'area', area: 'sync' })).toBe(false);
  });

  it('routes a share recipient’s #/copy/<token> to the copy page, keeping the token as it is', () => {
    expect(resolveHash('#/copy/AbC_-9')).toEqual({ route: { kind: 'share-copy', token: 'AbC_-9' }, canonicalHash: '#/copy/AbC_-9' });
    expect(resolveHash('#/copy/')).toMatchObject({ route: { kind: 'not-found' } });
    expect(resolveHash('#/copy/a%20b').route.kind).toBe('not-found');
    expect(sameRoute({ kind: 'share-copy', token: 'a' }, { kind: 'share-copy', token: 'b' })).toBe(false);
  });
});
