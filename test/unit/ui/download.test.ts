import { describe, expect, it } from 'vitest';
import { attachmentFileName } from '../../../ui/src/api/http.ts';

describe('attachment file names', () => {
  it('prefers the RFC 5987 name, then the quoted ASCII name, then the fallback', () => {
    expect(attachmentFileName(`attachment; filename="Road Trip - Ete.csv"; filename*=UTF-8''Road%20Trip%20%E2%80%93%20%C3%89t%C3%A9.csv`, 'x')).toBe('Road Trip – Été.csv');
    expect(attachmentFileName('attachment; filename="Mix.zip"', 'x')).toBe('Mix.zip');
    expect(attachmentFileName(`attachment; filename*=UTF-8''%E0%A4%A`, 'fallback')).toBe('fallback');
    expect(attachmentFileName(null, 'export')).toBe('export');
  });
});
