/**
 * Title parsing: bracketed and dash suffixes are classified into version tags rather than dropped,
 * and featured artists move from the title into the artist set.
 */

export type VersionKind =
  | 'remaster'
  | 'live'
  | 'remix'
  | 'acoustic'
  | 'instrumental'
  | 'karaoke'
  | 'cover'
  | 'tribute'
  | 'sped_up'
  | 'slowed'
  | 'nightcore'
  | 'altered'
  | 'radio_edit'
  | 'single_version'
  | 'extended'
  | 'demo'
  | 'a_cappella'
  | 're_recording'
  | 'version'
  | 'edit'
  | 'explicit'
  | 'clean'
  | 'mono'
  | 'stereo'
  | 'deluxe'
  // Neutral: carry no recording difference.
  | 'video_tag'
  | 'soundtrack'
  | 'bonus'
  | 'original';

export interface VersionTag {
  kind: VersionKind;
  /** The suffix text as written (lower case), e.g. "remastered 2011", "john doe remix". */
  detail: string;
  /** Where the tag came from. */
  from: 'title' | 'artist' | 'album';
}

export interface ParsedTitle {
  /** The title with classified suffixes and featured credits removed. */
  base: string;
  tags: VersionTag[];
  /** Artists credited in the title ("feat. X", "(with X)"). */
  featured: string[];
  /** A leading "Artist - " segment that named one of the hinted artists (video uploads). */
  leadingArtist: string | null;
}

const lc = (s: string): string => s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().trim();

/** Ordered: the first rules win for a segment, later rules may add tags too. */
const RULES: { kind: VersionKind; re: RegExp }[] = [
  { kind: 'karaoke', re: /\bkaraoke\b|originally performed by|in the style of|made famous by|made popular by|\bsing-?along\b/u },
  { kind: 'tribute', re: /\btribute\b/u },
  { kind: 'cover', re: /\bcover(ed)?\b/u },
  { kind: 'nightcore', re: /\bnightcore\b/u },
  { kind: 'sped_up', re: /\bsped[ -]?up\b|\bspeed[ -]?up\b|\bfaster\b/u },
  { kind: 'slowed', re: /\bslowed\b|\breverb\b|\bslow(ed)? ?\+/u },
  { kind: 'a_cappella', re: /\ba ?cap+el+a\b/u },
  { kind: 'instrumental', re: /\binstrumental\b|\binst\b|\boff ?vocal\b|\bbacking track\b/u },
  { kind: 'karaoke', re: /\bminus ?one\b/u },
  { kind: 'acoustic', re: /\bacoustic\b|\bacustic[oa]\b|\bakusti(k|sch)\b|\bunplugged\b/u },
  { kind: 'live', re: /\blive\b|\bunplugged\b|\ben vivo\b|\bao vivo\b|\bin concert\b|\bsessions?\b|\blive at\b/u },
  { kind: 'demo', re: /\bdemo\b|\b(alternate|alternative|early) (take|version|mix)\b|\btake \d+\b|\bouttake\b|\brehearsal\b/u },
  { kind: 'altered', re: /\b8d\b|\bbass boosted\b|\bchopped\b|\bscrewed\b|\blo-?fi\b|\b432 ?hz\b|\bpitched\b/u },
  { kind: 'version', re: /\breprise\b|\bpiano version\b|\borchestral\b|\bsymphonic\b|\binterlude\b|\bintro\b|\boutro\b|\bskit\b/u },
  { kind: 're_recording', re: /taylors version|\bre-?record(ed|ing)?\b|\b20\d\d version\b/u },
  { kind: 'radio_edit', re: /\bradio (edit|version|mix|cut)\b|\bsingle edit\b/u },
  { kind: 'single_version', re: /\bsingle (version|mix)\b|\b7 ?(inch|") (version|mix)\b/u },
  { kind: 'extended', re: /\bextended\b|\b12 ?(inch|") (version|mix)\b|\bclub mix\b/u },
  { kind: 'remaster', re: /\bremaster(ed)?\b|\bremasterizad[oa]\b|\b(19|20)\d\d (stereo |mono )?mix\b|\b(anniversary|expanded) edition\b/u },
  { kind: 'remix', re: /\bre-?mix(ed)?\b|\brmx\b|\bmix\b|\bmixed\b|\brework\b|\bbootleg\b|\bflip\b|\bvip\b|\bdub\b|\bre-?edit\b/u },
  { kind: 'mono', re: /\bmono\b/u },
  { kind: 'stereo', re: /\bstereo\b/u },
  { kind: 'deluxe', re: /\bdeluxe\b|\bexpanded\b|\bspecial edition\b/u },
  { kind: 'explicit', re: /\bexplicit\b|\bdirty\b|\buncensored\b/u },
  { kind: 'clean', re: /\bclean\b|\bcensored\b|\bedited\b/u },
  { kind: 'video_tag', re: /\bofficial\b|\bmusic video\b|\blyrics?\b|\bvisuali[sz]er\b|\baudio\b|\bvideo\b|\bm\/?v\b|\bhd\b|\bhq\b|\b4k\b|\bclip officiel\b/u },
  { kind: 'soundtrack', re: /^from\b|\bsoundtrack\b|\bmotion picture\b|\bost\b|\bopening\b|\bending\b|\btheme\b/u },
  { kind: 'bonus', re: /\bbonus( track)?\b|\bhidden track\b/u },
  { kind: 'edit', re: /\bedit\b/u },
  { kind: 'original', re: /\boriginal (mix|version)\b|\balbum version\b|\blp version\b/u },
  { kind: 'version', re: /\bversion\b|\bversion\b|\bver\b|\bversao\b|\bfassung\b/u },
];

const NEUTRAL_OVERRIDES: { re: RegExp; kinds: VersionKind[] }[] = [
  // "Original Mix" / "Album Version" are the plain recording, not a remix or a special version.
  { re: /\boriginal mix\b|\balbum version\b|\blp version\b|\boriginal version\b/u, kinds: ['original'] },
  { re: /^(19|20)\d\d$/u, kinds: ['remaster'] },
];

const ENSEMBLE_RE = /\b(orchestra|orchestre|orchester|orquesta|symphony|symphonic|philharmonic|philharmonie|sinfonietta|choir|chorus|chor|coro|string quartet|strings)\b/u;
const FEAT_RE = /^(?:feat\.?|ft\.?|featuring|with|w\/)\s+(.+)$/u;
const FEAT_INLINE_RE = /\s+[([]?\s*(?:feat\.?|ft\.?|featuring)\s+(.+?)\s*[)\]]?\s*$/iu;

/** Classifies one suffix segment. An empty result means the segment belongs to the title itself. */
export function classifySegment(segment: string): VersionKind[] {
  const s = lc(segment).replace(/[’']/gu, '').replace(/\s+/gu, ' ');
  for (const o of NEUTRAL_OVERRIDES) if (o.re.test(s)) return o.kinds;
  const kinds: VersionKind[] = [];
  for (const rule of RULES) if (rule.re.test(s) && !kinds.includes(rule.kind)) kinds.push(rule.kind);
  // An unplugged set is both live and acoustic; "live" inside a radio edit etc. keeps both.
  if (kinds.includes('remix') && kinds.includes('remaster') && !/\bremix\b/u.test(s)) kinds.splice(kinds.indexOf('remix'), 1);
  if (kinds.includes('radio_edit') || kinds.includes('single_version') || kinds.includes('extended')) {
    for (const k of ['remix', 'edit', 'version'] as const) if (kinds.includes(k) && !/\bremix\b/u.test(s)) kinds.splice(kinds.indexOf(k), 1);
  }
  if (kinds.includes('re_recording') && kinds.includes('version')) kinds.splice(kinds.indexOf('version'), 1);
  if (kinds.length > 1 && kinds.includes('version')) kinds.splice(kinds.indexOf('version'), 1);
  if (kinds.length > 1 && kinds.includes('edit')) kinds.splice(kinds.indexOf('edit'), 1);
  if (kinds.length > 1 && kinds.includes('video_tag') && !/^official|video|audio|lyric/u.test(s)) kinds.splice(kinds.indexOf('video_tag'), 1);
  return kinds;
}

const BRACKET_RE = /[([{【〔［]([^()[\]{}【】〔〕［］]*)[)\]}】〕］]/gu;
const DASH_RE = /\s+[-–—~]\s+|\s+[-–—]|[-–—]\s+/u;

/**
 * Splits a title into its base and classified suffixes. `artistHints` lets a leading
 * "Artist - Title" (video uploads) be recognised and removed.
 */
export function parseTitle(raw: string, artistHints: readonly string[] = []): ParsedTitle {
  const tags: VersionTag[] = [];
  const featured: string[] = [];
  let title = raw.normalize('NFKC').replace(/\s+/gu, ' ').trim();
  const keep: string[] = [];
  let leadingArtist: string | null = null;

  const handle = (segment: string): boolean => {
    const seg = segment.trim();
    if (!seg) return true;
    const feat = FEAT_RE.exec(lc(seg));
    if (feat) {
      featured.push(...splitArtistNames(seg.replace(/^\s*(?:feat\.?|ft\.?|featuring|with|w\/)\s+/iu, '')));
      // "(with the City Orchestra)": an orchestral or choral version, not only a credit.
      if (ENSEMBLE_RE.test(feat[1] ?? '')) tags.push({ kind: 'version', detail: lc(seg), from: 'title' });
      return true;
    }
    const kinds = classifySegment(seg);
    if (kinds.length === 0) return false;
    for (const kind of kinds) tags.push({ kind, detail: lc(seg), from: 'title' });
    return true;
  };

  title = title.replace(BRACKET_RE, (_m, inner: string) => {
    if (!handle(inner)) keep.push(inner);
    return ' ';
  });

  let parts = title.split(DASH_RE).map((p) => p.trim()).filter(Boolean);
  // "Artist - Title": drop a leading segment that names the artist.
  if (parts.length >= 2 && artistHints.length > 0) {
    const head = lc(parts[0]!).replace(/[^\p{L}\p{N}]+/gu, '');
    const isArtist = artistHints.some((a) => {
      const key = lc(a).replace(/[^\p{L}\p{N}]+/gu, '');
      return key.length > 0 && (head === key || head.startsWith(key) || key.startsWith(head));
    });
    if (isArtist) {
      leadingArtist = parts[0]!;
      parts = parts.slice(1);
    }
  }
  const [head = '', ...rest] = parts;
  let base = head;
  for (const seg of rest) {
    if (handle(seg)) continue;
    // "Title - Artist" uploads name the artist after the title.
    if (!leadingArtist && artistHints.some((a) => lc(a).replace(/[^\p{L}\p{N}]+/gu, '') === lc(seg).replace(/[^\p{L}\p{N}]+/gu, ''))) {
      leadingArtist = seg;
      continue;
    }
    base += ` ${seg}`;
  }

  const inlineFeat = FEAT_INLINE_RE.exec(base);
  if (inlineFeat?.[1]) {
    featured.push(...splitArtistNames(inlineFeat[1]));
    base = base.slice(0, inlineFeat.index);
  }
  // A title that is only a tag word ("Intro", "Live") keeps it as its base.
  if (!base.trim() && keep.length === 0) base = raw;
  if (keep.length > 0) base += ` ${keep.join(' ')}`;
  return { base: base.trim(), tags, featured, leadingArtist };
}

/** Splits a display artist string into individual names. */
export function splitArtistNames(raw: string): string[] {
  return raw
    .normalize('NFKC')
    .split(/\s*(?:,|;|\/|&|\+|\bx\b|\band\b|\bet\b|\bund\b|\by\b|\bvs\.?|\bfeat\.?|\bft\.?|\bfeaturing\b|\bwith\b|、|，)\s*/iu)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Tags implied by an artist or album name (karaoke studios, tribute acts, live albums). */
export function contextTags(artist: string, album: string | null): VersionTag[] {
  const tags: VersionTag[] = [];
  const a = lc(artist);
  if (/\bkaraoke\b|\bsing-?along\b|\bin the style of\b/u.test(a)) tags.push({ kind: 'karaoke', detail: a, from: 'artist' });
  else if (/\btribute\b|\bcover band\b|\bcovers\b/u.test(a)) tags.push({ kind: 'tribute', detail: a, from: 'artist' });
  if (album) {
    const b = lc(album);
    if (/\bkaraoke\b|\bin the style of\b|\boriginally performed\b/u.test(b)) tags.push({ kind: 'karaoke', detail: b, from: 'album' });
    else if (/\btribute\b/u.test(b)) tags.push({ kind: 'tribute', detail: b, from: 'album' });
    if (/\blive (at|in|from|on)\b|\bunplugged\b|[([]live[)\]]|\blive$|^live\b(?! (forever|and|to|is|through|your|it|or|like|it up|and let))|\bin concert\b|\bao vivo\b|\ben vivo\b/u.test(b)) {
      tags.push({ kind: 'live', detail: b, from: 'album' });
    }
  }
  return tags;
}

/** Greatest hits, best-of and other compilations. */
export function isCompilationAlbum(album: string | null, metadata: Record<string, unknown>): boolean {
  const type = metadata.album_type ?? metadata.albumType ?? metadata.release_type;
  if (typeof type === 'string' && /compilation/iu.test(type)) return true;
  if (!album) return false;
  return /\bgreatest hits\b|\bbest of\b|\bthe best\b|\bhits\b|\bcollection\b|\banthology\b|\bessential\b|\bessentials\b|\bvery best\b|\bcompilation\b|\bnow that'?s what\b|\bretrospective\b|\bdefinitive\b|\bgold\b|\b(19|20)\d0s\b|\bvarious\b/iu.test(lc(album));
}
