/**
 * Spelling-tolerant keys for names and words that reach Latin through sound rather than spelling.
 * Each key is computed the same way on both sides of a comparison, so two spellings of one sound
 * meet and unrelated words, with their consonants in order, stay apart.
 */

/**
 * Korean romanizations disagree on vowels (Revised Romanization "eo", McCune–Reischauer "ŏ" → "o",
 * informal "u": 별 byeol / byŏl / byul), on voicing and aspiration written with a letter
 * (k/g, t/d, p/b, ch/j), on s/sh, on r/l, on doubled consonants and on hyphens and spaces between
 * syllables. The key collapses each of those differences.
 */
export function koreanKey(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z]/gu, '')
    .replace(/eo|eu|u|wo/gu, 'o')
    .replace(/ae|oe|we|ay/gu, 'e')
    .replace(/tch|ch|j/gu, 'c')
    .replace(/sh/gu, 's')
    .replace(/[kgq]/gu, 'k')
    .replace(/[td]/gu, 't')
    .replace(/[pbf]/gu, 'p')
    .replace(/[rl]/gu, 'l')
    .replace(/y/gu, 'i')
    .replace(/(.)\1+/gu, '$1');
}

/**
 * Katakana mostly writes foreign words as they sound: ナイトライン "naitorain" for "Night Line",
 * メロディー "merodii" for "Melody", シティ "shiti" for "City". The key keeps the consonants in
 * order after folding what katakana cannot write (l → r, v → b, th → s, m/n before a consonant)
 * and what English spells but does not say (silent gh, c as s or k, doubled letters, ck, ph);
 * vowels, semivowels and h are dropped, because katakana adds vowels English does not have.
 */
export function loanwordKey(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z]/gu, '')
    .replace(/gh(?![aeiou])/gu, '')
    .replace(/ph/gu, 'f')
    .replace(/th|sh|ts/gu, 's')
    .replace(/tch|ch/gu, 'c')
    .replace(/c(?=[eiy])/gu, 's')
    .replace(/ck|qu?|c/gu, 'k')
    .replace(/x/gu, 'ks')
    .replace(/l/gu, 'r')
    .replace(/v/gu, 'b')
    .replace(/dz|dj/gu, 'j')
    .replace(/m/gu, 'n')
    .replace(/[aeiouywh]/gu, '')
    .replace(/(.)\1+/gu, '$1');
}
