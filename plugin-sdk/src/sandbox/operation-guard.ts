import { Unsupported } from '../errors.ts';
import type { Manifest } from '../manifest.schema.ts';
import { OPERATIONS, type OperationName } from '../operations.schema.ts';

/**
 * Whether the host may run an operation of a plugin at all. The manifest is the contract an admin
 * approved: an operation it does not declare (a write capability, a mirror flag, a format
 * direction) is `Unsupported` even when the plugin's code implements it, and the code never runs.
 */

export function isOperationName(value: string): value is OperationName {
  return Object.hasOwn(OPERATIONS, value);
}

export function operationRefusal(manifest: Manifest, op: string, implemented: ReadonlySet<string>): Unsupported | null {
  if (!isOperationName(op)) return new Unsupported(`"${op.slice(0, 60)}" is not a plugin operation`);
  const spec = OPERATIONS[op];
  if (spec.plugin !== manifest.kind) return new Unsupported(`${op} is a ${spec.plugin} operation; ${manifest.id} is a ${manifest.kind} plugin`);
  if (manifest.kind === 'provider') {
    const declared = new Set<string>(manifest.provider?.capabilities ?? []);
    const missing = spec.requires.filter((capability) => !declared.has(capability));
    if (missing.length > 0) return new Unsupported(`${manifest.id} does not declare ${missing.join(', ')}, which ${op} requires`);
    if (spec.requiresFlag && manifest.provider?.[spec.requiresFlag] !== true) return new Unsupported(`${manifest.id} does not declare ${spec.requiresFlag}, which ${op} requires`);
  } else {
    const direction = op === 'parse' ? 'import' : 'export';
    if (!manifest.format?.directions.includes(direction)) return new Unsupported(`${manifest.id} does not declare the ${direction} direction, which ${op} requires`);
  }
  // A contract added later runs through the older operation it extends when the plugin predates it.
  if (!implemented.has(op) && !(spec.servedBy !== undefined && implemented.has(spec.servedBy))) return new Unsupported(`${manifest.id} does not implement ${op}`);
  return null;
}

/** The rate limiter cost of one request made during `op`, from the manifest's pacing hints. */
export function requestCost(manifest: Manifest, op: OperationName): number {
  const pacing = manifest.provider?.pacing;
  if (!pacing) return 1;
  if (op === 'searchTracks' || op === 'searchAlbums' || op === 'searchArtists') return pacing.search_quota_cost;
  if (OPERATIONS[op].writes) return pacing.write_quota_cost;
  return 1;
}
