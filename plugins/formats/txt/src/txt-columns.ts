import { formatKit } from '@opl/plugin-sdk';

/**
 * The TXT v1 layout: two comment lines, then a header row naming the export columns of schema
 * version 1 (SPEC "Export file columns", shared with CSV), then one tab-delimited row per track.
 * The column list is part of the stable v1 contract: never reorder, rename or drop an entry.
 */

export const SCHEMA_VERSION = formatKit.SCHEMA_VERSION;

/** The v1 export columns (the SDK's list, shared with CSV). */
export const TXT_V1_COLUMNS = formatKit.V1_COLUMNS;

export type TxtColumn = formatKit.V1Column;

/** First line of every file; readers recognise the format by it (or by the header row). */
export const MAGIC_LINE = '# Open Playlist TXT v1';

/** Second line: the schema version readers check, plus enough prose for a human opening the file. */
export const SCHEMA_LINE = `# schema_version=${SCHEMA_VERSION}; tab-separated columns named on the next line; one row per track in playlist order; a playlist without tracks has one row with empty track columns`;

export const LINE_END = '\n';
