import type { Track } from '@opl/plugin-sdk';
import { hanRenderings } from './han-readings.ts';
import { compactSimilarity, compareTokens, normalizeText, skeleton, titleSimilarity, type TextForm, type TitleSimilarity } from './text.ts';
import { contextTags, isCompilationAlbum, parseTitle, splitArtistNames, type ParsedTitle, type VersionKind, type VersionTag } from './versions.ts';
import { STRICTNESS, type Strictness } from './strictness.ts';
import type { ScoredCandidate, SignalBreakdown } from './types.ts';

const WEIGHTS = { title: 0.45, artist: 0.35, duration: 0.2 } as const;

/** Kinds that say nothing about which recording it is. */
const NEUTRAL: ReadonlySet<VersionKind> = new Set(['video_tag', 'soundtrack', 'bonus', 'original', 'explicit', 'clean']);
/** Kinds that are never an acceptable stand-in for a source without them. */
const NOT_THE_ARTIST: ReadonlySet<VersionKind> = new Set(['karaoke', 'cover', 'tribute']);

const LABEL: Record<VersionKind, string> = {
  remaster: 'a remaster', live: 'a live recording', remix: 'a remix', acoustic: 'an acoustic version', instrumental: 'an instrumental',
  karaoke: 'a karaoke track', cover: 'a cover', tribute: 'a tribute recording', sped_up: 'a sped-up edit', slowed: 'a slowed edit',
  nightcore: 'a nightcore edit', altered: 'an altered edit (8D, bass boosted, lo-fi…)', radio_edit: 'a radio edit', single_version: 'a single version', extended: 'an extended version',
  demo: 'a demo', a_cappella: 'an a cappella version', re_recording: 'a re-recording', version: 'a different version',
  edit: 'an edit', explicit: 'explicit', clean: 'clean', mono: 'a mono mix', stereo: 'a stereo mix', deluxe: 'a deluxe-edition track',
  video_tag: 'a video', soundtrack: 'a soundtrack track', bonus: 'a bonus track', original: 'the original',
};

/** Everything about a track the scorer needs, computed once per track. */
export interface Prepared {
  track: Track;
  parsed: ParsedTitle;
  title: TextForm;
  /** Latin readings of a title written in kanji/hanzi (han-readings.ts); empty otherwise. */
  titleReadings: TextForm[];
  artists: TextForm[];
  /** Artists credited by the provider (not merely named in the title). */
  creditedArtists: TextForm[];
  artistsUnknown: boolean;
  tags: VersionTag[];
  album: TextForm | null;
  compilation: boolean;
  isrc: string | null;
  explicit: boolean | null;
}

const HAN_RE = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/u;
const KATAKANA_WORD_RE = /[\u30a1-\u30fa\u30fc]{3,}/u;
const ARTIST_NOISE_RE = /\s*-\s*topic$|vevo$|\s+official$|\s+\(official\)$/iu;
const VARIOUS_RE = /^(various artists?|various|va|unknown artist|unknown)$/iu;

/** Korean surnames as they are usually written in Latin, not as Revised Romanization spells them. */
const KOREAN_SURNAMES: Record<string, string> = {
  박: 'park', 이: 'lee', 김: 'kim', 최: 'choi', 정: 'jung', 강: 'kang', 조: 'cho', 윤: 'yoon', 장: 'jang', 임: 'lim', 한: 'han',
  오: 'oh', 서: 'seo', 신: 'shin', 권: 'kwon', 황: 'hwang', 안: 'ahn', 송: 'song', 류: 'ryu', 유: 'yoo', 전: 'jeon', 홍: 'hong',
  고: 'ko', 문: 'moon', 양: 'yang', 손: 'son', 배: 'bae', 백: 'baek', 허: 'heo', 노: 'noh', 하: 'ha', 구: 'koo', 우: 'woo',
};

function artistForms(names: readonly string[]): TextForm[] {
  const forms: TextForm[] = [];
  for (const name of names) {
    for (const atom of splitArtistNames(name.replace(ARTIST_NOISE_RE, ''))) {
      const korean = /^[\uac00-\ud7a3]{3}$/u.test(atom.trim()) ? KOREAN_SURNAMES[atom.trim()[0]!] : undefined;
      const form = normalizeText(korean ? `${korean} ${atom.trim().slice(1)}` : atom);
      if (korean) form.nonLatin = true;
      if (HAN_RE.test(atom)) form.readings = hanRenderings(atom).map((r) => ({ ...normalizeText(r), nonLatin: true }));
      if (form.tokens[0] === 'the' && form.tokens.length > 1) form.tokens.shift();
      if (form.tokens.length > 0 && !forms.some((f) => f.tokens.join(' ') === form.tokens.join(' '))) forms.push(form);
    }
  }
  return forms;
}

function titleForm(text: string): TextForm {
  const form = normalizeText(text);
  if (form.tokens[0] === 'the' && form.tokens.length > 1) form.tokens.shift();
  return form;
}

/** Title similarity, reading ideographs through the table when that brings the titles closer. */
function compareTitles(s: Prepared, c: Prepared): TitleSimilarity {
  let best = titleSimilarity(s.title, c.title);
  const pairs: [TextForm, TextForm][] = [...s.titleReadings.map((r): [TextForm, TextForm] => [r, c.title]), ...c.titleReadings.map((r): [TextForm, TextForm] => [s.title, r])];
  for (const [a, b] of pairs) {
    const read = titleSimilarity(a, b);
    if (read.value > best.value) best = { ...read, note: `${read.note}, reading the kanji/hanzi as "${(a === s.title ? b : a).tokens.join(' ')}"` };
  }
  return best;
}

export function prepare(track: Track, artistHints: readonly string[] = []): Prepared {
  const names = track.artists.length > 0 ? track.artists : [track.artist];
  const known = names.filter((n) => n.trim() && !VARIOUS_RE.test(n.trim()));
  const parsed = parseTitle(track.title, [...known, ...artistHints]);
  const artists = artistForms([...known, ...parsed.featured, ...(parsed.leadingArtist ? [parsed.leadingArtist] : [])]);
  const title = titleForm(parsed.base);
  const titleReadings = hanRenderings(parsed.base).map(titleForm);
  const tags = [...parsed.tags, ...contextTags(track.artist, track.album)];
  const explicitTag = tags.some((t) => t.kind === 'explicit') ? true : tags.some((t) => t.kind === 'clean') ? false : null;
  const isrc = track.isrc ? track.isrc.replace(/[^a-z0-9]/giu, '').toUpperCase() : null;
  return {
    track,
    parsed,
    title,
    titleReadings,
    artists,
    creditedArtists: artistForms([...known, ...parsed.featured]),
    artistsUnknown: artists.length === 0,
    tags,
    album: track.album ? normalizeText(parseTitle(track.album).base) : null,
    compilation: isCompilationAlbum(track.album, track.metadata),
    isrc: isrc && isrc.length >= 10 ? isrc : null,
    explicit: track.explicit ?? explicitTag,
  };
}

const round = (n: number): number => Math.round(n * 1000) / 1000;

/** 1 within ±2 s, falling ever faster; 0 beyond about 40 s. Long tracks get proportionally more slack. */
export function durationValue(deltaSeconds: number, longestSeconds = 0): number {
  const d = Math.abs(deltaSeconds) / Math.max(1, longestSeconds / 420);
  if (d <= 2) return 1;
  if (d <= 5) return 1 - 0.02 * (d - 2);
  if (d <= 10) return 0.94 - 0.04 * (d - 5);
  if (d <= 20) return 0.74 - 0.03 * (d - 10);
  return Math.max(0, 0.44 - 0.02 * (d - 20));
}

interface ArtistComparison {
  value: number;
  note: string;
  crossScript: boolean;
}

function atomMatch(a: TextForm, b: TextForm): boolean {
  // Romanizations of names vary more than spellings of Latin names do.
  if (compactSimilarity(a, b) >= (a.nonLatin !== b.nonLatin ? 0.8 : 0.9)) return true;
  // Arabic and Hebrew names are written without short vowels: compare whole-name consonant
  // skeletons ("ليلى حداد" / "Layla Haddad": l-h-d), long enough not to meet by chance.
  if (a.abjad !== b.abjad) {
    const bones = (f: TextForm): string => f.tokens.map(skeleton).join('');
    const sa = bones(a);
    if (sa.length >= 3 && sa === bones(b)) return true;
  }
  const t = compareTokens(a, b);
  return t.similarity >= 0.75;
}

/** Names in kanji/hanzi also compare through their readings (family-name order is free: tokens). */
function atomsMatch(a: TextForm, b: TextForm): boolean {
  if (atomMatch(a, b)) return true;
  return [a, ...(a.readings ?? [])].some((x) => [b, ...(b.readings ?? [])].some((y) => (x !== a || y !== b) && atomMatch(x, y)));
}

function compareArtists(s: Prepared, c: Prepared): ArtistComparison {
  const crossScript = s.artists.some((f) => f.nonLatin) !== c.artists.some((f) => f.nonLatin);
  if (s.artistsUnknown || c.artistsUnknown) return { value: 0.5, note: 'artist unknown on one side', crossScript };
  const matchedS = s.artists.filter((a) => c.artists.some((b) => atomsMatch(a, b)));
  const matchedC = c.artists.filter((b) => s.artists.some((a) => atomsMatch(a, b)));
  // An upload that names the artist only in its title ("Artist - Song [HQ]") is weaker evidence.
  if (c.parsed.leadingArtist && matchedC.length > 0 && !c.creditedArtists.some((b) => s.artists.some((a) => atomsMatch(a, b)))) {
    return { value: 0.75, note: 'the artist is named only in the upload title, not credited', crossScript };
  }
  if (matchedS.length === s.artists.length && matchedC.length === c.artists.length) return { value: 1, note: 'all artists match', crossScript };
  const primary = matchedS.includes(s.artists[0]!) || matchedC.includes(c.artists[0]!);
  const ratio = Math.max(matchedS.length, matchedC.length) / Math.max(s.artists.length, c.artists.length);
  if (primary) return { value: 0.85 + 0.1 * ratio, note: `main artist matches, ${matchedS.length} of ${s.artists.length} source artists found`, crossScript };
  if (matchedS.length > 0) return { value: 0.6, note: 'only a secondary artist matches', crossScript };
  const joined = (forms: TextForm[]): TextForm => ({ tokens: forms.flatMap((f) => f.tokens), abjad: forms.some((f) => f.abjad), unspaced: false, nonLatin: false });
  if (compactSimilarity(joined(s.artists), joined(c.artists)) >= 0.85) return { value: 0.8, note: 'artist names nearly equal', crossScript };
  return { value: 0, note: 'no artist in common', crossScript };
}

function versionKinds(tags: readonly VersionTag[]): Map<VersionKind, VersionTag[]> {
  const m = new Map<VersionKind, VersionTag[]>();
  for (const t of tags) if (!NEUTRAL.has(t.kind)) m.set(t.kind, [...(m.get(t.kind) ?? []), t]);
  return m;
}

const DETAIL_NOISE = /\b(remix(ed)?|mix|rmx|edit|version|live|at|in|from|the|a|of|remaster(ed)?|feat|ft|rework|bootleg|vip|dub|recorded)\b/gu;
const detailTokens = (tags: readonly VersionTag[]): Set<string> =>
  new Set(tags.filter((t) => t.from === 'title').flatMap((t) => normalizeText(t.detail.replace(DETAIL_NOISE, ' ')).tokens));

function versionPenalties(s: Prepared, c: Prepared, strictness: Strictness, isrcAgrees: boolean): SignalBreakdown[] {
  const out: SignalBreakdown[] = [];
  const sk = versionKinds(s.tags);
  const ck = versionKinds(c.tags);
  const kinds = [...new Set([...sk.keys(), ...ck.keys()])].sort();
  for (const kind of kinds) {
    const inS = sk.get(kind);
    const inC = ck.get(kind);
    const base = STRICTNESS[strictness].versionPenalty[kind] ?? 0.2;
    if (inS && inC) {
      if (kind === 'remix' || kind === 'live' || kind === 'version' || kind === 'cover') {
        // Pair the tags one by one: "(Interlude) (Japanese Ver.)" against "(Interlude)" leaves one over.
        const shares = (x: VersionTag, y: VersionTag): boolean => {
          const a = detailTokens([x]);
          const b = detailTokens([y]);
          return a.size === 0 || b.size === 0 || [...a].some((t) => b.has(t));
        };
        const unpairedS = inS.filter((x) => !inC.some((y) => shares(x, y)));
        const unpairedC = inC.filter((y) => !inS.some((x) => shares(x, y)));
        if (unpairedS.length > 0 || unpairedC.length > 0) {
          const weight = kind === 'live' ? 0.12 : base * 0.75;
          const one = unpairedS[0] ?? inS[0]!;
          const other = unpairedC[0] ?? inC[0]!;
          out.push({ signal: `version_mismatch:${kind}`, value: 1, weight: round(weight), note: `both are ${LABEL[kind]}, but different ones ("${one.detail}" vs "${other.detail}")` });
        }
      }
      continue;
    }
    if (base === 0) continue;
    const only = inS ? 'source' : 'candidate';
    const tags = (inS ?? inC)!;
    // Album-only evidence (a live album) is weaker than a title saying so.
    const weak = tags.every((t) => t.from === 'album');
    let weight = weak ? base * 0.6 : base;
    if (isrcAgrees && !NOT_THE_ARTIST.has(kind)) weight *= 0.5;
    const note = only === 'candidate' ? `the candidate is ${LABEL[kind]} and the source is not` : `the source is ${LABEL[kind]} and the candidate is not`;
    out.push({ signal: `version_mismatch:${kind}`, value: 1, weight: round(weight), note: `${note}${weak ? ' (from its album name)' : ''}` });
  }
  return out;
}

export interface ScoreContext {
  strictness: Strictness;
  videoProvider: boolean;
}

/** Scores one candidate against the source; deterministic and explainable. */
export function scoreCandidate(s: Prepared, c: Prepared, ctx: ScoreContext): ScoredCandidate {
  const breakdown: SignalBreakdown[] = [];
  const penalties: SignalBreakdown[] = [];

  const title = compareTitles(s, c);
  const artist = compareArtists(s, c);
  // Kanji/hanzi the reading table does not know, against a Latin title: the title can neither
  // agree nor disagree, so it weighs nothing and the other signals decide how far it goes (review).
  const hanSide = HAN_RE.test(s.track.title) === HAN_RE.test(c.track.title) ? null : HAN_RE.test(s.track.title) ? s : c;
  // Katakana mostly writes foreign words, whose romanization is not their Latin spelling
  // (ナイトライン "naitorain" for "Night Line"): no more readable than unknown kanji.
  const scriptSide = s.title.nonLatin === c.title.nonLatin ? null : s.title.nonLatin ? s : c;
  const loanwords = scriptSide !== null && KATAKANA_WORD_RE.test(scriptSide.parsed.base);
  const titleUnreadable = !title.sharedContent && ((hanSide !== null && hanSide.titleReadings.every((r) => r.tokens.some((t) => HAN_RE.test(t)))) || loanwords);
  // Likewise an artist written in another script with no reading in common.
  const artistUnreadable = artist.value === 0 && artist.crossScript;
  const titleWeight = titleUnreadable ? 0 : WEIGHTS.title;
  const artistWeight = artistUnreadable ? 0 : WEIGHTS.artist;
  breakdown.push({ signal: 'title_similarity', value: round(title.value), weight: titleWeight, note: titleUnreadable ? 'the title is in kanji/hanzi this engine cannot read: neutral' : title.note });
  breakdown.push({ signal: 'artist_overlap', value: round(artist.value), weight: artistWeight, note: artistUnreadable ? 'the artist is written in another script with no reading in common: neutral' : artist.note });

  let weightSum = titleWeight + artistWeight;
  let sum = titleWeight * title.value + artistWeight * artist.value;
  const sd = s.track.duration_s;
  const cd = c.track.duration_s;
  let durationNote = 'length unknown';
  const videoType = typeof c.track.provider_metadata.videoType === 'string' ? c.track.provider_metadata.videoType : null;
  if (sd !== null && cd !== null && sd > 0 && cd > 0) {
    let delta = Math.abs(sd - cd);
    // Official music videos add intros and outros: extra length up to 45 s counts a third.
    if (videoType === 'MUSIC_VIDEO_TYPE_OMV' && cd > sd) delta = Math.min(delta, 45) / 3 + Math.max(0, delta - 45);
    const value = durationValue(delta, Math.max(sd, cd));
    const seconds = Math.round(Math.abs(sd - cd));
    durationNote = `${seconds <= 1 ? 'same length' : `lengths differ by ${seconds} s`}${delta !== Math.abs(sd - cd) ? ' (a music video may run longer)' : ''}`;
    breakdown.push({ signal: 'duration', value: round(value), weight: WEIGHTS.duration, note: durationNote });
    weightSum += WEIGHTS.duration;
    sum += WEIGHTS.duration * value;
    const scaled = delta / Math.max(1, Math.max(sd, cd) / 420);
    if (scaled > 20) penalties.push({ signal: 'duration_far', value: round(delta), weight: round(Math.min(0.3, 0.1 + 0.005 * (scaled - 20))), note: `the lengths differ by ${Math.round(Math.abs(sd - cd))} s, more than another edit of the same song would` });
  } else {
    breakdown.push({ signal: 'duration', value: 0.5, weight: 0, note: 'duration unknown on one side: neutral' });
  }
  let score = sum / weightSum;

  // ISRC: strong evidence, but sanity-checked against title and artist to catch bad data.
  const isrcEqual = s.isrc !== null && s.isrc === c.isrc;
  const isrcSane = isrcEqual && (title.value >= 0.5 || (title.sharedContent && artist.value >= 0.5));
  let cap = 1;
  if (isrcEqual && isrcSane) {
    breakdown.push({ signal: 'isrc_exact', value: 1, weight: 0.08, note: 'ISRC matches' });
    score += 0.08;
  } else if (isrcEqual) {
    breakdown.push({ signal: 'isrc_exact', value: 1, weight: 0, note: 'ISRC matches but title and artist disagree: suspected bad ISRC data' });
    cap = Math.min(cap, 0.75);
  } else if (s.isrc && c.isrc) {
    penalties.push({ signal: 'isrc_mismatch', value: 1, weight: STRICTNESS[ctx.strictness].isrcMismatchPenalty, note: 'the recording codes (ISRC) differ, which can happen for the same recording on another release' });
  }

  // Ideographs cannot be romanized without a dictionary: a kanji title against its romaji is doubt, not a miss.
  // An unreadable title is doubt, never a match: at most review, with the artist (or, when the
  // artist is unreadable too, the length or album) carrying it there.
  const lengthClose = sd !== null && cd !== null && Math.abs(sd - cd) <= 3;
  const albumClose = s.album !== null && c.album !== null && titleSimilarity(s.album, c.album).value >= 0.8;
  const unreadableCap = artist.value >= 0.85 ? 0.7 : artistUnreadable && (lengthClose || albumClose) ? 0.6 : 0.3;
  if (!title.sharedContent) cap = Math.min(cap, titleUnreadable ? unreadableCap : 0.3);
  if (artist.value === 0) cap = Math.min(cap, artist.crossScript ? 0.7 : 0.45);

  if (title.sharedContent && title.extraWords.length > 0) {
    const words = title.extraWords.slice(0, 3).map((w) => `"${w}"`).join(', ');
    penalties.push({ signal: 'title_extra_words', value: title.extraWords.length, weight: 0.03, note: `one title has words the other lacks (${words}), as a sequel, part or another song would` });
  }

  penalties.push(...versionPenalties(s, c, ctx.strictness, isrcEqual && isrcSane));

  if (s.explicit !== null && c.explicit !== null && s.explicit !== c.explicit) {
    penalties.push({ signal: 'explicit_mismatch', value: 1, weight: STRICTNESS[ctx.strictness].explicitPenalty, note: c.explicit ? 'the candidate is explicit and the source is not' : 'the candidate is a clean edit and the source is explicit' });
  }

  if (s.album && c.album) {
    const album = titleSimilarity(s.album, c.album);
    if (album.value >= 0.8) {
      breakdown.push({ signal: 'album_match', value: round(album.value), weight: 0.02, note: 'same album' });
      score += 0.02;
    } else if (STRICTNESS[ctx.strictness].albumMismatchPenalty > 0) {
      penalties.push({ signal: 'album_mismatch', value: round(album.value), weight: STRICTNESS[ctx.strictness].albumMismatchPenalty, note: `a different release: the album is "${c.track.album ?? ''}", not "${s.track.album ?? ''}"` });
    } else if (c.compilation && !s.compilation) {
      penalties.push({ signal: 'compilation', value: 1, weight: 0.03, note: 'the candidate comes from a compilation, the source from an original release' });
    }
  } else if (c.compilation && !s.compilation && s.album) {
    penalties.push({ signal: 'compilation', value: 1, weight: 0.03, note: 'the candidate comes from a compilation' });
  }

  if (ctx.videoProvider || videoType) {
    if (videoType === 'MUSIC_VIDEO_TYPE_ATV') breakdown.push({ signal: 'video_type', value: 1, weight: 0, note: 'official audio track' });
    else if (videoType === 'MUSIC_VIDEO_TYPE_OMV') penalties.push({ signal: 'video_type', value: 1, weight: 0.04, note: 'an official music video rather than the audio track' });
    else if (videoType === 'MUSIC_VIDEO_TYPE_UGC') penalties.push({ signal: 'video_type', value: 1, weight: 0.12, note: 'a user upload rather than an official release' });
    else penalties.push({ signal: 'video_type', value: 1, weight: 0.05, note: `video type ${videoType ?? 'unknown'}, not official audio` });
  }

  if (c.track.media_type === 'episode' && s.track.media_type !== 'episode') {
    penalties.push({ signal: 'media_type', value: 1, weight: 0.5, note: 'the candidate is a podcast episode' });
  }

  score = Math.min(score, cap);
  for (const p of penalties) score -= p.weight;
  score = round(Math.max(0, Math.min(1, score)));

  return { id: c.track.id ?? '', score, breakdown, penalties, reason: explain(title.value, title.sharedContent, artist, durationNote, isrcEqual, isrcSane, penalties, score) };
}

function explain(title: number, shared: boolean, artist: ArtistComparison, duration: string, isrcEqual: boolean, isrcSane: boolean, penalties: SignalBreakdown[], score: number): string {
  const parts: string[] = [];
  parts.push(!shared ? 'the titles share no word' : title >= 0.95 ? 'same title' : title >= 0.7 ? 'similar title' : 'partly similar title');
  parts.push(artist.value >= 1 ? 'same artists' : artist.value >= 0.85 ? 'same main artist' : artist.value === 0.5 ? 'artist unknown on one side' : artist.value > 0 ? 'only some artists in common' : 'a different artist');
  parts.push(duration);
  if (isrcEqual) parts.push(isrcSane ? 'same recording code (ISRC)' : 'same recording code (ISRC), but title and artist disagree, so it may be wrong');
  const worst = [...penalties].sort((a, b) => b.weight - a.weight)[0];
  const tail = worst && worst.weight >= 0.02 ? `; but ${worst.note}` : '';
  return `Score ${Math.round(score * 100)}%: ${parts.join(', ')}${tail}.`;
}

export { type VersionKind };
