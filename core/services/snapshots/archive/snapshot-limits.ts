/**
 * The caps a snapshot archive must stay within to be verified (SPEC Limits rule 8). The defaults
 * hold real libraries (a 100 000-track library is some 60 MiB of JSONL before compression); the
 * `OPL_SNAPSHOT_MAX_*` variables change them, and `opl snapshot verify` takes the same values.
 */
export interface SnapshotLimits {
  /** Bytes of the archive file itself. */
  archiveBytes: number;
  /** Bytes of all members together once decompressed. */
  uncompressedBytes: number;
  /** Bytes of `manifest.json` once decompressed (it is held in memory to be read). */
  manifestBytes: number;
  /** Bytes of one record line (held in memory while it is parsed). */
  recordBytes: number;
  /** Decompressed bytes per compressed byte of one member. */
  compressionRatio: number;
}

const MIB = 1024 * 1024;

export const DEFAULT_SNAPSHOT_LIMITS: Readonly<SnapshotLimits> = {
  archiveBytes: 1024 * MIB,
  uncompressedBytes: 4 * 1024 * MIB,
  manifestBytes: 64 * MIB,
  recordBytes: 2 * MIB,
  compressionRatio: 200,
};

/**
 * Below this many decompressed bytes a member is not judged by its ratio: a tiny or empty member
 * (an empty collection is two compressed bytes) has ratios that mean nothing, while a bomb has to
 * pass it to do harm.
 */
export const RATIO_FLOOR_BYTES = 1 * MIB;
