import { createHash } from 'node:crypto';

/**
 * The music world of the fake providers and the demo: a deterministic catalogue of a few hundred
 * invented but real-looking recordings (ISRCs, albums with UPCs, durations, explicit flags, a few
 * versions of the same song — live, remix, remaster, acoustic), plus podcast episodes and local
 * files for the fidelity rules. Every name here is made up for this project.
 *
 * Each fake gives these recordings its own ids (see `providerId`), and may leave some out of its
 * catalogue (`availableOn`), so a migration meets real "not found" cases.
 */

export interface SeedArtist {
  readonly key: string;
  readonly name: string;
}

export interface SeedAlbum {
  readonly key: string;
  readonly title: string;
  readonly artistKeys: readonly string[];
  readonly releaseDate: string;
  readonly upc: string;
  readonly kind: 'album' | 'single' | 'compilation';
}

export interface SeedTrack {
  readonly key: string;
  readonly title: string;
  readonly artistKeys: readonly string[];
  readonly albumKey: string;
  readonly durationMs: number;
  /** Absent for a few recordings, as on real services. */
  readonly isrc: string | null;
  readonly explicit: boolean;
  readonly trackNumber: number;
  /** `track` for music; `episode` and `local_file` exist for the fidelity rules. */
  readonly mediaType: 'track' | 'episode' | 'local_file';
  /** Provider names whose catalogue has this recording; all when absent. */
  readonly availableOn?: readonly string[];
}

export interface SeedPlaylist {
  readonly name: string;
  readonly description?: string;
  readonly trackKeys: readonly string[];
  readonly public?: boolean;
  readonly collaborative?: boolean;
}

export interface SeedLibrary {
  readonly playlists?: readonly SeedPlaylist[];
  /** Playlists owned by someone else that the user follows. */
  readonly followed?: readonly SeedPlaylist[];
  readonly likedTrackKeys?: readonly string[];
  readonly savedAlbumKeys?: readonly string[];
  readonly followedArtistKeys?: readonly string[];
}

export interface SeedCatalog {
  readonly artists: ReadonlyMap<string, SeedArtist>;
  readonly albums: ReadonlyMap<string, SeedAlbum>;
  readonly tracks: ReadonlyMap<string, SeedTrack>;
}

const FIRST = ['Mira', 'Jonah', 'Elio', 'Saskia', 'Tomas', 'Ines', 'Kenji', 'Aurora', 'Dmitri', 'Lena', 'Rafael', 'Yuna', 'Oskar', 'Celeste', 'Bram', 'Noor'];
const LAST = ['Solberg', 'Vance', 'Marchetti', 'Okafor', 'Lindqvist', 'Duarte', 'Hayashi', 'Novak', 'Ferreira', 'Castellan', 'Whitlow', 'Amari'];
const BANDS = ['The Velvet Harbor', 'Paper Lanterns', 'Northbound Static', 'Glass Orchard', 'The Quiet Engines', 'Saltwater Choir', 'Neon Meridian', 'Copper Tide', 'The Lantern Years', 'Hollow Pines', 'Midnight Atlas', 'Silver Thread'];
const NON_LATIN = [
  { name: '星野 灯', title: '夜明けの歌' },
  { name: 'Ирина Волкова', title: 'Белые ночи' },
  { name: 'Νίκος Αλεξίου', title: 'Θάλασσα' },
  { name: '이서연', title: '봄날의 기억' },
];
const WORDS = ['Golden', 'Hour', 'Paper', 'Moon', 'Running', 'Slow', 'Electric', 'Heart', 'River', 'Summer', 'Static', 'Wild', 'Echoes', 'Northern', 'Lights', 'Glass', 'Fire', 'Quiet', 'Storm', 'Satellite', 'Velvet', 'Midnight', 'Drive', 'Ocean', 'Letters', 'Home', 'Gravity', 'Bloom', 'Shadows', 'Dancing'];
const ALBUM_WORDS = ['Afterglow', 'Tidelines', 'Long Way Round', 'Blue Hours', 'Small Fires', 'Open Roads', 'Fieldnotes', 'Parallel', 'Undertow', 'Lowlands', 'Signal Fires', 'Weather Systems'];

/** Any letter outside Latin script (CJK, Cyrillic, Greek, Hangul). */
const NON_LATIN_SCRIPT = /[^\p{Script=Latin}\p{P}\p{N}\p{Zs}]/u;

/** A small deterministic PRNG (mulberry32) so every run and every process builds the same world. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

/** A well-formed ISRC: country, registrant, year, designation. */
function isrc(random: () => number, year: number, index: number): string {
  const country = pick(random, ['GB', 'US', 'SE', 'DE', 'FR', 'JP', 'NL']);
  const registrant = `${String.fromCharCode(65 + Math.floor(random() * 26))}${String.fromCharCode(65 + Math.floor(random() * 26))}${Math.floor(random() * 10)}`;
  return `${country}${registrant}${String(year % 100).padStart(2, '0')}${String(10_000 + index).padStart(5, '0')}`;
}

function upc(index: number): string {
  const body = `19${String(2_000_000_000 + index * 7919).padStart(10, '0')}`.slice(0, 11);
  // GS1 check digit.
  const sum = [...body].reduce((total, digit, position) => total + Number(digit) * (position % 2 === 0 ? 3 : 1), 0);
  return body + String((10 - (sum % 10)) % 10);
}

let cached: SeedCatalog | null = null;

/** The shared catalogue: 24 artists, ~40 albums, ~320 recordings (versions included), episodes and local files. */
export function seedCatalog(): SeedCatalog {
  if (cached) return cached;
  const random = prng(20_261_121);
  const artists = new Map<string, SeedArtist>();
  const albums = new Map<string, SeedAlbum>();
  const tracks = new Map<string, SeedTrack>();

  const artistNames: string[] = [...BANDS];
  while (artistNames.length < 20) {
    const name = `${pick(random, FIRST)} ${pick(random, LAST)}`;
    if (!artistNames.includes(name)) artistNames.push(name);
  }
  artistNames.push(...NON_LATIN.map((entry) => entry.name));
  artistNames.forEach((name, index) => artists.set(`ar${index}`, { key: `ar${index}`, name }));
  const artistKeys = [...artists.keys()];

  let trackIndex = 0;
  let albumIndex = 0;
  for (const artistKey of artistKeys) {
    const albumCount = artistKey === 'ar0' || artistKey === 'ar1' ? 3 : NON_LATIN_SCRIPT.test(artists.get(artistKey)!.name) ? 1 : 2;
    for (let a = 0; a < albumCount; a++) {
      const year = 1995 + Math.floor(random() * 30);
      const kind: SeedAlbum['kind'] = a === albumCount - 1 && random() < 0.3 ? 'single' : 'album';
      const albumKey = `al${albumIndex}`;
      const nonLatin = NON_LATIN.find((entry) => entry.name === artists.get(artistKey)!.name);
      albums.set(albumKey, {
        key: albumKey,
        title: nonLatin ? nonLatin.title : kind === 'single' ? '' : pick(random, ALBUM_WORDS),
        artistKeys: [artistKey],
        releaseDate: `${year}-${String(1 + Math.floor(random() * 12)).padStart(2, '0')}-${String(1 + Math.floor(random() * 28)).padStart(2, '0')}`,
        upc: upc(albumIndex),
        kind,
      });
      const size = kind === 'single' ? 1 : 7 + Math.floor(random() * 5);
      let singleTitle = '';
      for (let t = 0; t < size; t++) {
        const title = nonLatin && t === 0 ? nonLatin.title : `${pick(random, WORDS)} ${pick(random, WORDS)}`;
        if (t === 0) singleTitle = title;
        const featured = random() < 0.12 ? [pick(random, artistKeys.filter((key) => key !== artistKey))] : [];
        tracks.set(`tr${trackIndex}`, {
          key: `tr${trackIndex}`,
          title,
          artistKeys: [artistKey, ...featured],
          albumKey,
          durationMs: 150_000 + Math.floor(random() * 150_000),
          isrc: random() < 0.04 ? null : isrc(random, year, trackIndex),
          explicit: random() < 0.15,
          trackNumber: t + 1,
          mediaType: 'track',
          ...(random() < 0.05 ? { availableOn: [pick(random, ['spotify', 'tidal'])] } : {}),
        });
        trackIndex++;
      }
      if (kind === 'single') albums.set(albumKey, { ...albums.get(albumKey)!, title: singleTitle });
      albumIndex++;
    }
  }

  // Versions of the same songs: what a careless matcher confuses with the original.
  const originals = [...tracks.values()].filter((track) => track.isrc).slice(0, 24);
  const versions: [string, number][] = [
    [' (Live)', 1.08],
    [' - Remastered 2011', 1],
    [' (Acoustic)', 0.95],
    [' (Club Remix)', 1.4],
    [' (Radio Edit)', 0.8],
    [' (Karaoke Version)', 1],
  ];
  originals.forEach((original, index) => {
    const [suffix, factor] = versions[index % versions.length]!;
    const albumKey = `al${albumIndex}`;
    albums.set(albumKey, { key: albumKey, title: `${original.title}${suffix}`, artistKeys: original.artistKeys.slice(0, 1), releaseDate: '2021-06-04', upc: upc(albumIndex), kind: 'single' });
    albumIndex++;
    tracks.set(`tr${trackIndex}`, {
      key: `tr${trackIndex}`,
      title: `${original.title}${suffix}`,
      artistKeys: original.artistKeys,
      albumKey,
      durationMs: Math.round(original.durationMs * factor),
      isrc: isrc(random, 2021, trackIndex),
      explicit: original.explicit,
      trackNumber: 1,
      mediaType: 'track',
    });
    trackIndex++;
  });

  // Podcast episodes and local files: readable, never migratable.
  const showAlbum = `al${albumIndex++}`;
  albums.set(showAlbum, { key: showAlbum, title: 'The Long Listen (podcast)', artistKeys: ['ar2'], releaseDate: '2024-03-01', upc: upc(albumIndex), kind: 'album' });
  for (let e = 0; e < 4; e++) {
    tracks.set(`ep${e}`, { key: `ep${e}`, title: `Episode ${e + 12}: On Tour`, artistKeys: ['ar2'], albumKey: showAlbum, durationMs: 2_400_000 + e * 60_000, isrc: null, explicit: false, trackNumber: e + 1, mediaType: 'episode', availableOn: ['spotify'] });
  }
  for (let l = 0; l < 3; l++) {
    tracks.set(`lf${l}`, { key: `lf${l}`, title: `Bootleg ${l + 1}`, artistKeys: ['ar5'], albumKey: 'al0', durationMs: 200_000, isrc: null, explicit: false, trackNumber: l + 1, mediaType: 'local_file', availableOn: ['spotify'] });
  }

  cached = { artists, albums, tracks };
  return cached;
}

/** A provider's id for a seed entity: stable across processes, different per provider. */
export function providerId(provider: string, key: string, alphabet: 'base62' | 'digits' = 'base62', length = 22): string {
  const digest = createHash('sha256').update(`${provider}:${key}`).digest();
  const symbols = alphabet === 'digits' ? '0123456789' : '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  let id = '';
  for (let index = 0; id.length < length; index++) id += symbols[digest[index % digest.length]! % symbols.length];
  // Digits-only ids must not start with 0.
  return alphabet === 'digits' && id.startsWith('0') ? `1${id.slice(1)}` : id;
}

/** Whether `provider`'s catalogue carries the recording. */
export function isAvailableOn(track: SeedTrack, provider: string): boolean {
  return !track.availableOn || track.availableOn.includes(provider);
}

/**
 * The demo user's library: a handful of playlists (one with an episode and a local file, one with
 * duplicates, one in Japanese), liked tracks, saved albums and followed artists.
 */
export function demoLibrary(): SeedLibrary {
  const catalog = seedCatalog();
  const music = [...catalog.tracks.values()].filter((track) => track.mediaType === 'track');
  const keys = (from: number, count: number, step = 1) => Array.from({ length: count }, (_, index) => music[(from + index * step) % music.length]!.key);
  const nonLatin = music.filter((track) => NON_LATIN_SCRIPT.test(track.title)).map((track) => track.key);
  return {
    playlists: [
      { name: 'Road Trip 2024', description: 'Windows down, volume up.', trackKeys: keys(0, 42, 3), public: true },
      { name: 'Late Night Focus', description: 'Quiet music for deep work.', trackKeys: keys(7, 25, 5) },
      { name: 'Podcasts & Bootlegs', description: 'Mixed bag: episodes and local files.', trackKeys: [...keys(11, 5), 'ep0', 'ep1', 'lf0', 'lf1'] },
      { name: 'Repeat Offenders', description: 'Yes, some songs are in here twice.', trackKeys: [...keys(20, 8), ...keys(20, 3)] },
      { name: '夜のプレイリスト', description: 'Non-Latin titles', trackKeys: [...nonLatin, ...keys(40, 6)] },
      { name: 'Versions', description: 'Originals next to their live and remix versions.', trackKeys: music.filter((track) => /\(|- Remastered/.test(track.title)).slice(0, 12).map((track) => track.key) },
      { name: 'Big Mix', description: 'A long playlist that needs paging.', trackKeys: keys(3, 160, 1) },
      { name: 'Empty For Now', trackKeys: [] },
      // The same playlist made twice (a common accident): same name, mostly the same songs, so the
      // organizer's duplicate scan has a pair to show.
      { name: 'Workout', description: 'Made on the phone.', trackKeys: keys(60, 12, 2) },
      { name: 'Workout', description: 'Made again on the laptop.', trackKeys: [...keys(60, 9, 2), ...keys(130, 3)] },
    ],
    followed: [
      { name: 'Friends Weekly', description: 'A friend’s playlist you follow.', trackKeys: keys(90, 15, 2), public: true },
      // A friend's playlist you may edit: the organizer's "collaborative" relation.
      { name: 'Band Practice', description: 'A friend’s playlist you both add to.', trackKeys: keys(150, 8, 3), collaborative: true },
    ],
    likedTrackKeys: keys(1, 60, 4),
    savedAlbumKeys: [...catalog.albums.keys()].slice(0, 12),
    followedArtistKeys: [...catalog.artists.keys()].slice(0, 10),
  };
}
