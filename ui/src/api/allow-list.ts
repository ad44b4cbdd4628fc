/**
 * The hosted allow-list form: what an administrator types, checked before it is sent to
 * `POST /api/admin/plugins/allow-list`. The engine validates again (semver range, id syntax) and
 * answers 400/422 with a problem; this only catches empty fields early and says which one.
 */

import type { RefusedPlugin } from './plugins.ts';

export interface AllowListDraft {
  readonly pluginId: string;
  readonly keyId: string;
  readonly versionRange: string;
}

export type AllowListField = keyof AllowListDraft;

export interface AllowListRequestBody {
  readonly plugin_id: string;
  readonly key_id: string;
  readonly version_range: string;
}

export type DraftCheck =
  | { readonly ok: true; readonly body: AllowListRequestBody }
  | { readonly ok: false; readonly errors: Readonly<Partial<Record<AllowListField, string>>>; readonly firstInvalid: AllowListField };

export const EMPTY_DRAFT: AllowListDraft = { pluginId: '', keyId: '', versionRange: '' };

/** Form order, so the first invalid field is the one focus goes to. */
export const DRAFT_FIELDS: readonly AllowListField[] = ['pluginId', 'keyId', 'versionRange'];

const MISSING: Readonly<Record<AllowListField, string>> = {
  pluginId: 'Enter the plugin id, for example com.example.my-provider.',
  keyId: "Enter the id of the publisher's signing key.",
  versionRange: 'Enter a version range, for example ^1.2.0.',
};

export function checkDraft(draft: AllowListDraft): DraftCheck {
  const errors: Partial<Record<AllowListField, string>> = {};
  for (const field of DRAFT_FIELDS) {
    if (draft[field].trim() === '') errors[field] = MISSING[field];
  }
  const firstInvalid = DRAFT_FIELDS.find((field) => errors[field] !== undefined);
  if (firstInvalid) return { ok: false, errors, firstInvalid };
  return {
    ok: true,
    body: { plugin_id: draft.pluginId.trim(), key_id: draft.keyId.trim(), version_range: draft.versionRange.trim() },
  };
}

/** Only a plugin refused for not being allow-listed can be fixed by an allow-list entry. */
export function canAllow(refused: RefusedPlugin): boolean {
  return refused.reason === 'not_allow_listed';
}

/** Lifting a quarantine only makes sense for a quarantined plugin. */
export function canRelease(refused: RefusedPlugin): boolean {
  return refused.reason === 'quarantined';
}

/**
 * A starting point for allowing a refused plugin: its id, the key that signed it when the engine
 * reports it as a field, and every later compatible release of its version. The refusal's detail
 * is prose for people and is never mined for a key id: without the field the key stays empty and
 * the administrator types the key they mean to trust.
 */
export function draftForRefused(refused: RefusedPlugin): AllowListDraft {
  const version = refused.version?.trim() ?? '';
  return { pluginId: refused.id, keyId: refused.keyId ?? '', versionRange: version === '' ? '' : `^${version}` };
}
