import { EXPORT_FORMATS_PATH, unavailableFormats, type ExportFormatValue } from '../../api/exports.ts';
import { apiRequest } from '../../api/http.ts';

/**
 * Asks the engine which export formats it cannot write now (a format's plugin may be refused or
 * quarantined). Null when the list could not be had: then every format stays offered, and an
 * export the engine cannot write explains itself.
 */
export async function loadUnavailableFormats(): Promise<ReadonlySet<ExportFormatValue> | null> {
  const result = await apiRequest(EXPORT_FORMATS_PATH);
  return result.ok ? unavailableFormats(result.data) : null;
}
