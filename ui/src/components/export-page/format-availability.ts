import { availableFormat, EXPORT_FORMATS_PATH, unavailableFormats, type ExportFormatValue } from '../../api/exports.ts';
import { apiRequest } from '../../api/http.ts';

/**
 * Asks the engine which export formats it cannot write now (a format's plugin may be refused or
 * quarantined) and which format to preselect instead of `chosen`. Null when the list could not be
 * had: then every format stays offered, and an export the engine cannot write explains itself.
 */
export async function loadFormatAvailability(chosen: ExportFormatValue): Promise<{ unavailable: ReadonlySet<ExportFormatValue>; format: ExportFormatValue } | null> {
  const result = await apiRequest(EXPORT_FORMATS_PATH);
  const unavailable = result.ok ? unavailableFormats(result.data) : null;
  return unavailable ? { unavailable, format: availableFormat(chosen, unavailable) } : null;
}
