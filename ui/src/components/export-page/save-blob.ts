/**
 * Hands a downloaded Blob to the browser as a file with the engine's file name, through an object
 * URL and a download link. Returns the URL so the page can offer the file again; the caller
 * revokes it when it is no longer shown.
 */
export function saveBlob(blob: Blob, fileName: string): string {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.click();
  return url;
}
