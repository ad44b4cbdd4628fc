/**
 * Google's canonical RPC status names by HTTP status: the `error.status` of every Google API error
 * body (YouTube Data API, YouTube Music's InnerTube). Each fake adds the ones its service answers
 * beyond these.
 */
export const GOOGLE_RPC_STATUS: Readonly<Record<number, string>> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ABORTED',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};
