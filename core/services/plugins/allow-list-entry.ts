import semver from 'semver';

const PLUGIN_ID = /^[a-z0-9]+(?:[-_][a-z0-9]+)*(?:\.[a-z0-9]+(?:[-_][a-z0-9]+)*)+$/;
const KEY_ID = /^[a-z0-9][a-z0-9-]{2,63}$/;

/** Checks an allow-list entry the same way for the HTTP API and the CLI; null when it is valid. */
export function validateAllowListEntry(entry: { pluginId: string; keyId: string; versionRange: string }): string | null {
  if (entry.pluginId.length > 100 || !PLUGIN_ID.test(entry.pluginId)) return `"${entry.pluginId}" is not a plugin id (expected e.g. com.example.my-provider).`;
  if (!KEY_ID.test(entry.keyId)) return `"${entry.keyId}" is not a key id (lowercase letters, digits and dashes).`;
  if (entry.versionRange.length > 100 || semver.validRange(entry.versionRange) === null) return `"${entry.versionRange}" is not a semver range (e.g. ^1.2.0).`;
  return null;
}
