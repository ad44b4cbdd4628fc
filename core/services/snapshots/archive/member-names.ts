import { shownName, SnapshotVerificationError } from './verification-error.ts';

/**
 * Member names judged as an extracting tool would see them on any system — although verification
 * never extracts, an archive that passes may be unpacked by someone else's tool later.
 */

/** Drive letters (`C:`), UNC and rooted names, on either separator. */
const ABSOLUTE = /^(?:[/\\]|[A-Za-z]:)/;

// eslint-disable-next-line no-control-regex -- control characters are what this rejects
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

export function checkMemberName(name: string): void {
  if (name.length === 0 || name.length > 255) throw new SnapshotVerificationError('invalid_member_name', `A member name is empty or longer than 255 characters (${shownName(name)}).`, name);
  if (CONTROL.test(name)) throw new SnapshotVerificationError('invalid_member_name', `The member name ${shownName(name)} contains control characters.`, name);
  if (ABSOLUTE.test(name)) throw new SnapshotVerificationError('absolute_path', `The member name ${shownName(name)} is an absolute path.`, name);
  // A backslash is a separator on Windows: `..\x` climbs there as `../x` does elsewhere.
  const segments = name.split(/[/\\]/);
  if (segments.some((segment) => segment === '..')) throw new SnapshotVerificationError('path_traversal', `The member name ${shownName(name)} climbs out of the archive ("..").`, name);
  if (name.includes('\\') || segments.some((segment) => segment === '.' || segment === '')) {
    throw new SnapshotVerificationError('invalid_member_name', `The member name ${shownName(name)} is not a plain relative path.`, name);
  }
}

/**
 * The name a case-insensitive or normalizing file system would give a member: two members with
 * one folded name would overwrite each other when unpacked (`A.jsonl` and `a.jsonl`; `é` written
 * precomposed and decomposed; a full-width letter and its ASCII twin under NFKC).
 */
export function foldedMemberName(name: string): string {
  return name.normalize('NFKC').toLowerCase().normalize('NFKC').toUpperCase().normalize('NFC');
}

/** Refuses a second member of one name, exactly or once folded. */
export class MemberNameSet {
  readonly #exact = new Set<string>();
  readonly #folded = new Map<string, string>();

  add(name: string): void {
    if (this.#exact.has(name)) throw new SnapshotVerificationError('duplicate_member', `The archive holds ${shownName(name)} twice.`, name);
    const folded = foldedMemberName(name);
    const twin = this.#folded.get(folded);
    if (twin !== undefined) {
      throw new SnapshotVerificationError('duplicate_member_folded', `The members ${shownName(twin)} and ${shownName(name)} are one name once case and Unicode forms are folded.`, name);
    }
    this.#exact.add(name);
    this.#folded.set(folded, name);
  }
}
