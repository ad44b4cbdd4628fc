import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../core/http/errors/index.ts';
import { requireOwner } from '../../../core/http/owner/owner-gate.ts';
import type { Owner } from '../../../core/services/owner/owner.ts';

const requestWith = (owner: Owner | null) => ({ owner }) as unknown as FastifyRequest;

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
  return undefined;
}

describe('requireOwner', () => {
  it('returns the local owner', () => {
    expect(requireOwner(requestWith({ kind: 'local', id: 'local' }), 'create a migration')).toEqual({ kind: 'local', id: 'local' });
  });

  it('refuses hosted-mode requests until user authentication is configured, saying what was refused', () => {
    expect(codeOf(() => requireOwner(requestWith({ kind: 'anonymous' }), 'create a migration'))).toBe('authentication_not_configured');
    try {
      requireOwner(requestWith({ kind: 'anonymous' }), 'create a migration');
    } catch (error) {
      expect((error as AppError).status).toBe(403);
      expect((error as AppError).detail).toMatch(/cannot create a migration/);
    }
  });

  it('asks for a session when the gate found none', () => {
    expect(codeOf(() => requireOwner(requestWith(null), 'create a migration'))).toBe('session_required');
  });
});
