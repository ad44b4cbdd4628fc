import { describe, expect, it } from 'vitest';
import type { Track } from '@opl/plugin-sdk';
import { trackSchema } from '@opl/plugin-sdk/schemas';
import { filterWhere } from '../../../../core/services/migrations/item-filters.ts';
import { outcomeOf } from '../../../../core/services/migrations/migration-outcome.ts';
import { linksForAnotherService, preflightWarnings, sameName, songsOverlap, unsupportedTargets } from '../../../../core/services/migrations/migration-preflight.ts';
import { csvField, csvLine } from '../../../../core/services/migrations/migration-report.ts';
import { classifyFailure } from '../../../../core/services/migrations/migration-errors.ts';
import { emptyCounts } from '../../../../core/services/migrations/migration-views.ts';
import { AuthExpired, NotFound, ProviderError, RateLimited } from '@opl/plugin-sdk';
import { ConnectionError } from '../../../../core/services/connections/connection.service.ts';

const track = (title: string, artist: string, isrc: string | null = null): Track => trackSchema.parse({ title, artist, isrc });
const summary = (playlists: number, tracks: number) => ({ playlists, tracks, saved_albums: 0, followed_artists: 0, unsupported: 0 });
const facts = { targetTracksToday: 0, secondsSinceLastJob: null, conflictingTargets: [], quotaTracksFitToday: null, quotaResetsAt: null };

describe('preflight warnings', () => {
  it('stay quiet within the safe defaults', () => {
    expect(preflightWarnings({ ...facts, summary: summary(1, 50), targetTracksToday: 200, secondsSinceLastJob: 120 })).toEqual([]);
  });

  it('name each default that is exceeded', () => {
    const codes = preflightWarnings({ ...facts, summary: summary(2, 51), targetTracksToday: 200, secondsSinceLastJob: 119.5 }).map((warning) => warning.code);
    expect(codes).toEqual(['too_many_playlists', 'too_many_tracks', 'daily_target_limit', 'jobs_too_close']);
  });

  it('warn about a same-name target playlist and a quota too small for today', () => {
    const warnings = preflightWarnings({ ...facts, summary: summary(1, 10), conflictingTargets: [{ collection: 'Road Trip', targetPlaylistId: 'p1' }], quotaTracksFitToday: 4, quotaResetsAt: '2026-11-22T08:00:00.000Z' });
    expect(warnings.map((warning) => warning.code)).toEqual(['same_name_different_songs', 'quota_limited']);
    expect(warnings[1]).toMatchObject({ fit_today: '4', resets_at: '2026-11-22T08:00:00.000Z' });
    expect(warnings.every((warning) => Object.values(warning).every((value) => typeof value === 'string'))).toBe(true);
  });
});

describe('songs that are only links to another service', () => {
  const link = (uris: Record<string, string>, fields: Partial<Track> = {}): Track => trackSchema.parse({ title: '', artist: '', provider_uris: uris, ...fields });

  const toward = (provider: string, takes: string[] = [], searchesIsrc = true) => ({ provider, searchesIsrc, takes: new Set(takes) });

  it('counts migratable songs with nothing to search by and no link the target takes, naming the services', () => {
    const tracks = [
      link({ tidal: 'tidal:track:1' }),
      link({ tidal: 'tidal:track:2', deezer: 'deezer:track:9' }),
      // The target's own link, taken by its plugin: written as linked.
      link({ spotify: 'spotify:track:a' }),
      // Something to search by: a title, an album, an ISRC.
      link({ tidal: 'tidal:track:3' }, { title: 'Song' }),
      link({ tidal: 'tidal:track:4' }, { album: 'Record' }),
      link({ tidal: 'tidal:track:5' }, { isrc: 'USAAA0000001' }),
      // Not migrated at all: reported as such, not warned about here.
      link({ tidal: 'tidal:track:6' }, { is_migratable: false, unsupported_reason: 'podcast episode' }),
      link({}),
    ];
    expect(linksForAnotherService(tracks, toward('spotify', ['spotify:track:a']))).toEqual({ count: 2, providers: ['deezer', 'tidal'] });
    // Toward TIDAL only the Spotify link is one of another service.
    expect(linksForAnotherService(tracks, toward('tidal', ['tidal:track:1', 'tidal:track:2']))).toEqual({ count: 1, providers: ['spotify'] });
    // A link under the target's key that its plugin does not take (a malformed id) is warned about too.
    expect(linksForAnotherService(tracks, toward('tidal', ['tidal:track:1']))).toEqual({ count: 2, providers: ['deezer', 'spotify', 'tidal'] });
    // A target that cannot search by ISRC cannot search for the song that has only one.
    expect(linksForAnotherService(tracks, toward('spotify', ['spotify:track:a'], false))).toEqual({ count: 3, providers: ['deezer', 'tidal'] });
    // With a TIDAL account that can look its links up, a TIDAL link says what to search for.
    expect(linksForAnotherService(tracks, { ...toward('spotify', ['spotify:track:a']), readable: new Set(['tidal']) })).toEqual({ count: 0, providers: [] });
    expect(linksForAnotherService(tracks, { ...toward('spotify', ['spotify:track:a']), readable: new Set(['deezer']) })).toEqual({ count: 1, providers: ['tidal'] });
  });

  it('asks about the web links a file kept, naming their service, and "web" for an address of none', () => {
    const tracks = [
      link({}, { metadata: { location: 'https://www.deezer.com/track/3135556' } }),
      link({}, { metadata: { location: 'https://youtu.be/FGBhQbmPwH8' } }),
      link({}, { metadata: { source_uri: 'https://shop.example/song/1' } }),
      // A path is no link: a local file, not counted here.
      link({}, { metadata: { location: 'C:\\Music\\a.mp3' } }),
    ];
    expect(linksForAnotherService(tracks, toward('spotify'))).toEqual({ count: 3, providers: ['deezer', 'web', 'youtube'] });
    // The YouTube Music plugin takes a YouTube link as its own song.
    expect(linksForAnotherService(tracks, toward('ytmusic', ['https://youtu.be/FGBhQbmPwH8']))).toEqual({ count: 2, providers: ['deezer', 'web'] });
  });

  it('warn in words with the count and the services, one or many', () => {
    const [many] = preflightWarnings({ ...facts, summary: summary(1, 3), linksElsewhere: { count: 3, providers: ['tidal'], targetName: 'Spotify' } });
    expect(many).toEqual({
      code: 'links_for_another_service',
      message: '3 of the selected songs are only links to tidal, with no title or artist: Spotify cannot be searched for them, so they will be skipped. Migrate them to tidal instead, or add titles and artists to the file.',
      count: '3',
      providers: 'tidal',
    });
    const [one] = preflightWarnings({ ...facts, summary: summary(1, 3), linksElsewhere: { count: 1, providers: ['deezer', 'tidal'], targetName: 'Spotify' } });
    expect(one).toMatchObject({ count: '1', providers: 'deezer,tidal' });
    expect(one!.message).toBe('1 of the selected songs is only a link to deezer or tidal, with no title or artist: Spotify cannot be searched for it, so it will be skipped. Migrate it to deezer or tidal instead, or add titles and artists to the file.');
    expect(preflightWarnings({ ...facts, summary: summary(1, 3), linksElsewhere: { count: 0, providers: [], targetName: 'Spotify' } })).toEqual([]);
    const [web] = preflightWarnings({ ...facts, summary: summary(1, 3), linksElsewhere: { count: 2, providers: ['deezer', 'web'], targetName: 'Spotify' } });
    expect(web!.message).toBe('2 of the selected songs are only links to deezer or web pages, with no title or artist: Spotify cannot be searched for them, so they will be skipped. Migrate them to deezer instead, or add titles and artists to the file.');
    const [onlyWeb] = preflightWarnings({ ...facts, summary: summary(1, 1), linksElsewhere: { count: 1, providers: ['web'], targetName: 'Spotify' } });
    expect(onlyWeb!.message).toBe('1 of the selected songs is only a link to a web page, with no title or artist: Spotify cannot be searched for it, so it will be skipped. Add titles and artists to the file.');
  });
});

describe('song comparison', () => {
  it('finds shared songs by ISRC or by normalised title and first artist', () => {
    expect(songsOverlap([track('Halo', 'Beyoncé')], [track('HALO', 'Beyonce feat. Someone')])).toBe(true);
    expect(songsOverlap([track('A', 'X', 'USAAA0000001')], [track('Other title', 'Y', 'usaaa0000001')])).toBe(true);
    expect(songsOverlap([track('Halo', 'Beyoncé')], [track('Halo', 'Somebody Else')])).toBe(false);
    expect(sameName('  Road Trip ', 'road trip')).toBe(true);
  });
});

describe('capability refusals', () => {
  const source = { provider: 'spotify', collections: [{ id: 'liked', kind: 'LIKED_TRACKS' as const, name: 'Liked', description: null, tracks: [], totalTracks: 0 }], albums: [], artists: [] };
  it('refuse liked songs for a target without a writable liked library', () => {
    expect(unsupportedTargets(source, { displayName: 'TIDAL', capabilities: ['CREATE_PLAYLIST', 'ADD_TRACKS'] })).toEqual([{ entity: 'liked_tracks', missing: ['WRITE_LIBRARY'], message: expect.stringContaining('TIDAL cannot receive liked songs') as string }]);
    expect(unsupportedTargets(source, { displayName: 'Spotify', capabilities: ['WRITE_LIBRARY'] })).toEqual([]);
  });
});

describe('job outcome', () => {
  const counts = (written: number, skipped: number, failed: number) => ({ ...emptyCounts(), total: written + skipped + failed, written, skipped, failed });
  it('is completed when everything arrived or was already there', () => {
    expect(outcomeOf(counts(5, 2, 0), 2, null)).toBe('completed');
  });
  it('is completed when the only songs that did not arrive are ones the user chose to skip', () => {
    expect(outcomeOf(counts(0, 3, 0), 3, null)).toBe('completed');
  });
  it('is partial when some arrived and some did not', () => {
    expect(outcomeOf(counts(5, 1, 0), 0, null)).toBe('partial');
    expect(outcomeOf(counts(5, 0, 1), 0, null)).toBe('partial');
  });
  it('is failed when nothing arrived, or a fatal error stopped a job that wrote nothing', () => {
    expect(outcomeOf(counts(0, 3, 0), 0, null)).toBe('failed');
    expect(outcomeOf(counts(0, 0, 0), 0, 'boom')).toBe('failed');
    expect(outcomeOf(counts(2, 0, 0), 0, 'boom')).toBe('partial');
  });
});

describe('failure classes', () => {
  it('pause on expired connections and quotas, retry on rate limits and provider trouble, fail otherwise', () => {
    expect(classifyFailure(new AuthExpired('x'))).toMatchObject({ kind: 'pause', code: 'auth_expired' });
    expect(classifyFailure(new ConnectionError('auth_expired', 'reconnect'))).toMatchObject({ kind: 'pause', code: 'auth_expired' });
    expect(classifyFailure(new RateLimited('quota', 100, { bucket: 'default', resets_at: '2030-01-01T00:00:00.000Z' }))).toMatchObject({ kind: 'pause', code: 'quota_exhausted', resumeAt: new Date('2030-01-01T00:00:00.000Z') });
    expect(classifyFailure(new RateLimited('slow down', 7))).toMatchObject({ kind: 'retry', retryAfterS: 7 });
    expect(classifyFailure(new RateLimited('slow down', null))).toMatchObject({ kind: 'retry', retryAfterS: null });
    expect(classifyFailure(new ProviderError('503'))).toMatchObject({ kind: 'retry', code: 'provider_unavailable' });
    expect(classifyFailure(new NotFound('gone'))).toMatchObject({ kind: 'fatal', code: 'provider_notfound' });
  });
});

describe('report CSV fields', () => {
  it('quote everything, double quotes, defuse formulas and write structured values as compact JSON', () => {
    expect(csvField('plain')).toBe('"plain"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('=SUM(A1)')).toBe(`"'=SUM(A1)"`);
    expect(csvField('-1 dB')).toBe(`"'-1 dB"`);
    expect(csvField(-1)).toBe('"-1"');
    expect(csvField(null)).toBe('""');
    expect(csvField({ a: [1] })).toBe('"{""a"":[1]}"');
    expect(csvLine(['a', 1, true])).toBe('"a","1","true"\r\n');
  });
});

describe('item filters', () => {
  it('match literal substrings without case and combine every filter', () => {
    const where = filterWhere('job-1', { title: '50%_off\\', status: ['failed', 'skipped'], problem_only: true, min_confidence: 0.5 });
    expect(where.text).toContain('title ilike ?');
    expect(where.values).toContain('%50\\%\\_off\\\\%');
    expect(where.values).toContain(JSON.stringify(['failed', 'skipped']));
    expect(where.values[0]).toBe('job-1');
  });
});
