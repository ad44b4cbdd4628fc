/** What the TXT parser's tests share: v1 rows and documents, and parsing checked against the host's contract. */
import { FORMAT_OPERATIONS } from '@opl/plugin-sdk/schemas';
import { MAGIC_LINE, SCHEMA_LINE, TXT_V1_COLUMNS, type TxtColumn } from './txt-columns.ts';
import { parseTxt } from './txt-parser.ts';

export const HEADER = TXT_V1_COLUMNS.join('\t');

/** A v1 row from named cells (unnamed ones empty), as the serializer would lay it out. */
export function row(cells: Partial<Record<TxtColumn, string>>): string {
  return TXT_V1_COLUMNS.map((column) => cells[column] ?? '').join('\t');
}

export function v1(...rows: string[]): string {
  return [MAGIC_LINE, SCHEMA_LINE, HEADER, ...rows, ''].join('\n');
}

/** Parses and checks the result against the contract the host enforces. */
export function parse(text: string, filename: string | null = null) {
  const result = parseTxt(text, filename);
  return FORMAT_OPERATIONS.parse.output.parse(result);
}
