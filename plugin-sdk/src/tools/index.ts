// `@opl/plugin-sdk/tools`: node-only tooling for publishers and hosts — keys, signing, bundle
// writing and verification, trust evaluation and the registry layout. Never bundled into plugins.
export { CanonicalJsonError, canonicalJson, canonicalJsonBytes } from '../canonical-json.ts';
export { directoryBundleSource, memoryBundleSource, type BundleSource } from './bundle-source.ts';
export { describeIssues } from './describe-issues.ts';
export { decodeUtf8, fromBase64, sha256Hex, toBase64, utf8 } from './encoding.ts';
export { endorseKey, endorsementIsValid, endorsementStatement } from './endorsement.ts';
export { jsonText, readJsonFile, writeJsonFileAtomic } from './json-file.ts';
export { publicKeyPathFor, readKeyRecordFile, readSecretKeyFile, writeKeyPairFiles, writeKeyRecordFile } from './key-file.ts';
export {
  ENDORSEMENT_TYPE,
  endorsementSchema,
  isoTimestampSchema,
  keyRecordSchema,
  secretKeyFileSchema,
  type Endorsement,
  type KeyRecord,
  type SecretKeyFile,
} from './key.schema.ts';
export {
  evaluateKeyTrust,
  MAX_ENDORSEMENT_CHAIN,
  type KeyRecordLookup,
  type KeyTrustOptions,
  type KeyTrustRefusal,
  type KeyTrustResult,
  type TrustedKeyResult,
} from './key-trust.ts';
export { generateKeyPair, publicRecordOf, secretKeyBytes, type GenerateKeyOptions } from './keygen.ts';
export { bundleDirIn, createLocalRegistrySource, REGISTRY_INDEX_FILE, REGISTRY_KEYS_DIR, REGISTRY_PLUGINS_DIR } from './local-registry-source.ts';
export { publishBundle, type PublishOptions, type PublishResult } from './publish-bundle.ts';
export { REFUSAL_REASONS, refuse, type Refusal, type RefusalReason } from './refusal.ts';
export { putRegistryKeyRecord, revokeKeyRecord, revokeRegistryKey } from './registry-keys.ts';
export { registryBundleSource, type RegistrySource } from './registry-source.ts';
export { emptyRegistryIndex, registryIndexSchema, type RegistryIndex } from './registry.schema.ts';
export { listFilesInside, MAX_FILE_BYTES, readFileInside } from './safe-path.ts';
export { signBundle } from './sign-bundle.ts';
export { SIGNATURE_TYPE, signatureFileSchema, signatureStatementSchema, type SignatureFile, type SignatureStatement } from './signature.schema.ts';
export { createSignature, manifestSha256, signatureIsValid, type SignManifestInput } from './signature.ts';
export { PluginToolError } from './tool-error.ts';
export { readTrustStore, revokeKeyInTrustStore, trustKey, writeTrustStore } from './trust-store.ts';
export { emptyTrustStore, trustStoreSchema, type RevokedKey, type TrustedKey, type TrustStore } from './trust-store.schema.ts';
export {
  checkBundleFiles,
  MANIFEST_FILE,
  readBundleManifest,
  SIGNATURE_FILE,
  verifyBundle,
  type VerifiedBundle,
  type VerifyBundleOptions,
  type VerifyBundleResult,
} from './verify-bundle.ts';
export { completeManifest, writeBundle, type WriteBundleInput } from './write-bundle.ts';
