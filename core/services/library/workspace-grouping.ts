import { normalizeText } from '../../matching/index.ts';

/**
 * Groups the Library workspace's members (one account's playlist or liked collection each) into
 * "same playlist" groups. Pure: the service hands it the members with their resolved track
 * identities, the stored lineage and the user's own links and splits.
 *
 * Evidence, strongest first, each applied only where it does not contradict what came before:
 * 1. `user_link` — the user joined the two members.
 * 2. `migration` / `sync_rule` — the engine wrote one into the other (stored lineage, exact).
 * 3. `track_overlap` — at least OVERLAP_SHARE of the smaller member's identified songs are in the
 *    other, and at least min(OVERLAP_MIN_SHARED, smaller size) songs are shared.
 * 4. `same_name` — equal normalised names, and the songs agree: at least NAME_OVERLAP_SHARE of the
 *    smaller member's identified songs are shared, or one of them has no identified song to compare.
 *    Two liked collections count as the same name (`liked_collections`).
 * A user's split (`apart`) is never overridden by any evidence but a later join. Track overlap and
 * names only join groups that have no account in common: one account's two playlists with the same
 * songs are duplicates (the organizer's business), not one playlist on two services.
 */

export const OVERLAP_SHARE = 0.6;
export const OVERLAP_MIN_SHARED = 3;
export const NAME_OVERLAP_SHARE = 0.25;
/** A song on more playlists than this says nothing about which of them belong together. */
export const COMMON_SONG_MEMBERS = 64;

export type EvidenceKind = 'user_link' | 'migration' | 'sync_rule' | 'track_overlap' | 'same_name' | 'liked_collections';

const STRENGTH: Record<EvidenceKind, number> = { user_link: 0, migration: 1, sync_rule: 1, track_overlap: 2, same_name: 3, liked_collections: 3 };

export interface GroupingMember {
  /** `<account id>/<playlist id>`. */
  key: string;
  accountId: string;
  name: string;
  kind: string;
  /** Distinct identified songs (identity keys, or numbers standing for them); null when its tracks have not been read yet. */
  identities: ReadonlySet<string | number> | null;
}

export interface Evidence {
  kind: EvidenceKind;
  a: string;
  b: string;
  detail: string;
  /** `migration`: the newest migration job a user started between the two (a sync rule starts from it). */
  jobId?: string;
}

export interface MemberGroup {
  /** Member keys, in the order the members were given. */
  members: string[];
  /** The evidence that holds the group together (empty for a group of one). */
  reasons: Evidence[];
}

export interface UserPair {
  a: string;
  b: string;
  relation: 'linked' | 'apart';
}

export function memberKey(accountId: string, playlistId: string): string {
  return `${accountId}/${playlistId}`;
}

export function pairKey(a: string, b: string): string {
  return a < b ? `${a}\n${b}` : `${b}\n${a}`;
}

/** Names compare without case, accents, punctuation or spacing. */
export function normalizeName(name: string): string {
  return normalizeText(name).tokens.join(' ');
}

export function groupMembers(members: readonly GroupingMember[], lineage: readonly Evidence[], userPairs: readonly UserPair[]): MemberGroup[] {
  const index = new Map(members.map((member, position) => [member.key, position]));
  const apart = userPairs.filter((pair) => pair.relation === 'apart' && index.has(pair.a) && index.has(pair.b));
  const evidence: Evidence[] = [
    ...userPairs.filter((pair) => pair.relation === 'linked').map((pair) => ({ kind: 'user_link' as const, a: pair.a, b: pair.b, detail: 'You joined these.' })),
    ...lineage,
    ...overlapEvidence(members),
  ].filter((item) => item.a !== item.b && index.has(item.a) && index.has(item.b));
  evidence.sort((x, y) => STRENGTH[x.kind] - STRENGTH[y.kind]);

  const parent = members.map((_, position) => position);
  const accounts = members.map((member) => new Set([member.accountId]));
  const find = (position: number): number => {
    while (parent[position] !== position) {
      parent[position] = parent[parent[position]!]!;
      position = parent[position]!;
    }
    return position;
  };
  for (const item of evidence) {
    const x = find(index.get(item.a)!);
    const y = find(index.get(item.b)!);
    if (x === y) continue;
    if (apart.some((pair) => [find(index.get(pair.a)!), find(index.get(pair.b)!)].sort().join() === [x, y].sort().join())) continue;
    if (STRENGTH[item.kind] >= STRENGTH.track_overlap && [...accounts[x]!].some((account) => accounts[y]!.has(account))) continue;
    parent[y] = x;
    for (const account of accounts[y]!) accounts[x]!.add(account);
  }

  const groups = new Map<number, MemberGroup>();
  members.forEach((member, position) => {
    const root = find(position);
    const group = groups.get(root) ?? { members: [], reasons: [] };
    group.members.push(member.key);
    groups.set(root, group);
  });
  const seen = new Set<string>();
  for (const item of evidence) {
    const root = find(index.get(item.a)!);
    if (root !== find(index.get(item.b)!)) continue;
    const key = `${item.kind}\n${pairKey(item.a, item.b)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    groups.get(root)!.reasons.push(item);
  }
  return [...groups.values()];
}

/** Track-overlap and name evidence between members of different accounts. */
function overlapEvidence(members: readonly GroupingMember[]): Evidence[] {
  const holders = new Map<string | number, number[]>();
  members.forEach((member, position) => {
    for (const identity of member.identities ?? []) {
      const list = holders.get(identity) ?? [];
      list.push(position);
      holders.set(identity, list);
    }
  });
  // Pair (i, j), i < j, as the number i * size + j: a large workspace counts millions of shared songs.
  const size = members.length;
  const shared = new Map<number, number>();
  for (const list of holders.values()) {
    if (list.length < 2 || list.length > COMMON_SONG_MEMBERS) continue;
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length; j++) {
        if (members[list[i]!]!.accountId === members[list[j]!]!.accountId) continue;
        const key = list[i]! * size + list[j]!;
        shared.set(key, (shared.get(key) ?? 0) + 1);
      }
    }
  }
  const evidence: Evidence[] = [];
  const sharedOf = (i: number, j: number) => shared.get(i < j ? i * size + j : j * size + i) ?? 0;
  for (const [key, count] of shared) {
    const [i, j] = [Math.floor(key / size), key % size];
    const smaller = Math.min(members[i]!.identities!.size, members[j]!.identities!.size);
    if (count / smaller >= OVERLAP_SHARE && count >= Math.min(OVERLAP_MIN_SHARED, smaller)) {
      evidence.push({ kind: 'track_overlap', a: members[i]!.key, b: members[j]!.key, detail: `${count} of ${smaller} songs in common (${Math.round((100 * count) / smaller)}%).` });
    }
  }
  const byName = new Map<string, number[]>();
  members.forEach((member, position) => {
    const name = member.kind === 'LIKED_TRACKS' ? '\u0000liked' : normalizeName(member.name);
    if (name === '') return;
    const list = byName.get(name) ?? [];
    list.push(position);
    byName.set(name, list);
  });
  for (const [name, list] of byName) {
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length; j++) {
        const [x, y] = [members[list[i]!]!, members[list[j]!]!];
        if (x.accountId === y.accountId) continue;
        if (name === '\u0000liked') {
          evidence.push({ kind: 'liked_collections', a: x.key, b: y.key, detail: 'Both are liked-songs collections.' });
          continue;
        }
        // Not read yet: nothing to say the songs agree.
        if (x.identities === null || y.identities === null) continue;
        const smaller = Math.min(x.identities.size, y.identities.size);
        const count = sharedOf(list[i]!, list[j]!);
        if (smaller === 0) evidence.push({ kind: 'same_name', a: x.key, b: y.key, detail: `Same name; one of them has no identified song to compare.` });
        else if (count / smaller >= NAME_OVERLAP_SHARE) evidence.push({ kind: 'same_name', a: x.key, b: y.key, detail: `Same name, ${count} of ${smaller} songs in common.` });
      }
    }
  }
  return evidence;
}
