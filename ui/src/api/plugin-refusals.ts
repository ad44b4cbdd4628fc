import { REFUSAL_REASONS, type RefusalReason } from '../../../plugin-sdk/src/tools/refusal.ts';

/**
 * Why the engine refused to load a plugin, in words an administrator can act on. The codes are the
 * SDK's list of refusal reasons, imported at build time: `refusal.ts` is a pure data module that
 * Vite bundles into the UI, which still talks to the engine only over HTTP at run time. A reason
 * added to the SDK fails the typecheck here until it has its words; the engine's `detail` says
 * which file, key or version it was.
 */

export { REFUSAL_REASONS, type RefusalReason };

export interface RefusalDescription {
  /** Short label for the table. */
  readonly label: string;
  /** What the administrator can do about it. */
  readonly advice: string;
}

const DESCRIPTIONS: Readonly<Record<RefusalReason, RefusalDescription>> = {
  unsigned: {
    label: 'Not signed',
    advice: 'Install a signed release. Unsigned plugins load only with the development flag OPL_PLUGIN_ALLOW_UNSIGNED=true.',
  },
  invalid_manifest: {
    label: 'Invalid manifest',
    advice: 'The manifest does not follow the plugin manifest schema; ask the publisher for a corrected release.',
  },
  missing_file: {
    label: 'A signed file is missing',
    advice: 'The bundle is incomplete; publish or copy it again.',
  },
  modified_file: {
    label: 'A file was changed after signing',
    advice: 'The bundle was tampered with or damaged; replace it with the published release.',
  },
  unlisted_file: {
    label: 'Contains a file the manifest does not list',
    advice: 'Remove the extra file or replace the bundle with the published release.',
  },
  bad_signature: {
    label: 'Signature does not verify',
    advice: 'The signature does not match the manifest; replace the bundle with the published release.',
  },
  unknown_key: {
    label: 'Signed by an untrusted key',
    advice: "Add the publisher's key to the trust store only if you trust this publisher.",
  },
  revoked_key: {
    label: 'Signed by a revoked key',
    advice: 'The publisher revoked this key; install a release signed with their current key.',
  },
  rollback: {
    label: 'Older than a version already loaded',
    advice: 'Versions only move forward; install the newer release again.',
  },
  engine_range: {
    label: 'Not compatible with this engine version',
    advice: 'Install a release of the plugin that supports this engine version.',
  },
  not_allow_listed: {
    label: 'Not on the allow-list',
    advice: 'Hosted mode loads only allow-listed plugins; add an allow-list entry, then reload.',
  },
  quarantined: {
    label: 'Quarantined after misbehaving',
    advice: 'The plugin repeatedly broke its limits. Release it to try loading it again.',
  },
  unreadable: {
    label: 'Could not be read',
    advice: 'Check that the registry is reachable and the bundle files are readable.',
  },
  duplicate: {
    label: 'Duplicate plugin id',
    advice: 'Another plugin with the same id was loaded first; remove one of them from the registry.',
  },
  load_failed: {
    label: 'Verified, but would not start',
    advice: 'The sandbox could not start the plugin code; ask the publisher for a corrected release.',
  },
};

export function isRefusalReason(code: string): code is RefusalReason {
  return (REFUSAL_REASONS as readonly string[]).includes(code);
}

/** A code this UI does not know yet (a newer engine) is still shown, made readable. */
export function describeRefusal(code: string): RefusalDescription {
  if (isRefusalReason(code)) return DESCRIPTIONS[code];
  const words = code.replace(/[_-]+/g, ' ').trim();
  return {
    label: words === '' ? 'Refused' : words.charAt(0).toUpperCase() + words.slice(1),
    advice: 'See the detail for what the engine found.',
  };
}

export function refusalLabel(code: string): string {
  return describeRefusal(code).label;
}
