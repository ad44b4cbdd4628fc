// Shared pieces of provider plugins: careful JSON readers, one JSON request with typed failures,
// what an error message may take from a failed answer, query strings and page sizes.
export { at, finite, flag, integer, list, nonEmpty, record, records, text, type JsonRecord } from './json-readers.ts';
export { firstErrorField, parseJsonOrNull, safeDetail, statusSuffix, type FailedResponse, type RequestPurpose } from './error-details.ts';
export { nowMs, requestJson, unreachableError, type JsonRequest, type UnreachableWords } from './request-json.ts';
export { clampPageSize, queryString, type QueryValue } from './query-string.ts';
export { pathSegment } from './path-segment.ts';
