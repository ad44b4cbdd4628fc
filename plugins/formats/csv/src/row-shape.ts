import type { formatKit } from '@opl/plugin-sdk';
import type { CsvRecord } from './csv-records.ts';
import { MAX_CELLS } from './csv-records.ts';

/**
 * Ragged rows. More cells than the header names means the columns shifted (typically an unquoted
 * delimiter inside a value), so no cell can be trusted: the row is skipped with an error — unless
 * every extra cell is empty (`Halo,Beyoncé,`: a trailing delimiter, as scripts and hand edits
 * leave them), which shifts nothing: the row is read as it is. Fewer
 * cells (a truncated row, trailing delimiters stripped by an editor) still put every present
 * value in its column: the row is kept with a warning and the missing cells read as empty.
 * A row with every cell empty carries nothing and is passed over silently.
 */
export function acceptRow(record: CsvRecord, width: number, issues: formatKit.IssueCollector): boolean {
  if (record.cells.every((cell) => cell.trim() === '')) return false;
  const trailingEmpty = !record.overflow && record.cells.length > width && record.cells.slice(width).every((cell) => cell.trim() === '');
  if (!trailingEmpty && (record.overflow || record.cells.length > width)) {
    const count = record.overflow ? `more than ${MAX_CELLS}` : String(record.cells.length);
    issues.add(record.line, 'too_many_cells', `the row has ${count} cells but the header names ${width}; its values cannot be matched to columns, so the row was skipped`, 'error', width + 1);
    return false;
  }
  if (record.cells.length < width) {
    issues.add(record.line, 'too_few_cells', `the row has ${record.cells.length} cells but the header names ${width}; the missing cells were read as empty`, 'warning', record.cells.length + 1);
  }
  return true;
}
