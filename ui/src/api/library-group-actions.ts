import { isRecord, isString, listOf, stringList } from './answer-parsing.ts';
import type { WorkspaceGroup } from './library-workspace.ts';

/**
 * What a Library group hands to other pages: its playlists to the Export page ("Export this
 * group…"), and its playlists to the Organizer's duplicate view ("Duplicates…"). Both travel in
 * sessionStorage, read once by the page they open (`takeGroupHandover`); the rest is pure.
 */

/** sessionStorage key: a group's copies the Library hands to the Export page. */
export const EXPORT_GROUP_KEY = 'opl.export.library-group';
/** sessionStorage key: a group's playlists the Library hands to the Organizer's duplicate view. */
export const ORGANIZER_GROUP_KEY = 'opl.organizer.library-group';

/** One account's copy of a group: its playlists of the group (usually one) on that account. */
export interface GroupCopy {
  readonly accountId: string;
  readonly provider: string;
  readonly accountName: string | null;
  readonly playlistIds: readonly string[];
  readonly playlistNames: readonly string[];
  /** How many of the group's songs this copy holds (the most complete comes first). */
  readonly holds: number;
}

/** A group handed to another page: its name, its song count and its copies, one per account. */
export interface GroupHandover {
  readonly groupName: string;
  readonly songs: number;
  readonly copies: readonly GroupCopy[];
}

/**
 * The group's copies, one per account, the most complete first (an export is of one account's
 * playlists: the file's manifest names one source). A copy's `holds` is the most any of its
 * playlists holds.
 */
export function groupHandover(group: WorkspaceGroup): GroupHandover {
  const byAccount = new Map<string, { accountId: string; provider: string; accountName: string | null; playlistIds: string[]; playlistNames: string[]; holds: number }>();
  for (const member of group.members) {
    const copy = byAccount.get(member.accountId) ?? { accountId: member.accountId, provider: member.provider, accountName: member.accountName, playlistIds: [], playlistNames: [], holds: 0 };
    copy.playlistIds.push(member.playlistId);
    copy.playlistNames.push(member.name);
    copy.holds = Math.max(copy.holds, member.holds);
    byAccount.set(member.accountId, copy);
  }
  const copies = [...byAccount.values()].sort((x, y) => y.holds - x.holds);
  return { groupName: group.name, songs: group.songs, copies };
}

function parseCopy(value: unknown): GroupCopy | undefined {
  if (!isRecord(value) || !isString(value['accountId']) || !isString(value['provider'])) return undefined;
  const playlistIds = stringList(value['playlistIds']);
  const playlistNames = stringList(value['playlistNames']);
  if (!playlistIds || !playlistNames || playlistIds.length === 0 || playlistIds.length !== playlistNames.length) return undefined;
  const accountName = isString(value['accountName']) ? value['accountName'] : null;
  const holds = typeof value['holds'] === 'number' && Number.isFinite(value['holds']) ? value['holds'] : 0;
  return { accountId: value['accountId'], provider: value['provider'], accountName, playlistIds, playlistNames, holds };
}

/** The stored hand-over, or undefined when absent or not of this shape (an older page's, a hand edit). */
export function parseGroupHandover(raw: string | null): GroupHandover | undefined {
  if (!raw) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (!isRecord(value) || !isString(value['groupName'])) return undefined;
  const copies = listOf(value['copies'], parseCopy);
  if (!copies || copies.length === 0) return undefined;
  const songs = typeof value['songs'] === 'number' && Number.isFinite(value['songs']) ? value['songs'] : 0;
  return { groupName: value['groupName'], songs, copies };
}

/** Reads and forgets a hand-over: a page opened later by hand starts empty. */
export function takeGroupHandover(key: string): GroupHandover | undefined {
  const handover = parseGroupHandover(sessionStorage.getItem(key));
  sessionStorage.removeItem(key);
  return handover;
}

export function copyLabel(copy: GroupCopy): string {
  return `${copy.accountName ?? copy.provider} on ${copy.provider}`;
}
