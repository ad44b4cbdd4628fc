/** `GET /readyz` interpreted for the health indicator. */

export type HealthState = 'checking' | 'ready' | 'degraded' | 'offline';

export interface HealthCheck {
  readonly name: string;
  readonly label: string;
  readonly up: boolean;
  readonly detail?: string;
}

export interface HealthSnapshot {
  readonly state: HealthState;
  readonly checks: readonly HealthCheck[];
  /** Why the state is what it is, when the checks alone do not say. */
  readonly reason?: string;
}

export const HEALTH_LABELS: Readonly<Record<HealthState, string>> = {
  checking: 'Checking',
  ready: 'Ready',
  degraded: 'Degraded',
  offline: 'Offline',
};

const CHECK_LABELS: Readonly<Record<string, string>> = {
  database: 'Database',
  job_queue: 'Job queue',
};

export function checkLabel(name: string): string {
  const known = CHECK_LABELS[name];
  if (known) return known;
  const words = name.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseChecks(value: unknown): HealthCheck[] | undefined {
  if (!isRecord(value)) return undefined;
  const checks: HealthCheck[] = [];
  for (const [name, check] of Object.entries(value)) {
    if (!isRecord(check) || (check['status'] !== 'up' && check['status'] !== 'down')) return undefined;
    const detail = typeof check['detail'] === 'string' && check['detail'] !== '' ? check['detail'] : undefined;
    checks.push({ name, label: checkLabel(name), up: check['status'] === 'up', ...(detail ? { detail } : {}) });
  }
  return checks;
}

/**
 * 200 + ready → Ready; a readiness document that is not ready (normally 503) → Degraded; anything
 * that is not a readiness document (proxy error page, 404, network failure) → Offline.
 */
export function interpretReadiness(status: number, body: unknown): HealthSnapshot {
  const checks = isRecord(body) ? parseChecks(body['checks']) : undefined;
  const reported = isRecord(body) ? body['status'] : undefined;
  if (checks === undefined || (reported !== 'ready' && reported !== 'not_ready')) {
    return {
      state: 'offline',
      checks: [],
      reason: status === 0 ? 'The engine did not answer.' : `The engine answered with HTTP status ${status} instead of a readiness report.`,
    };
  }
  if (status === 200 && reported === 'ready' && checks.every((check) => check.up)) {
    return { state: 'ready', checks };
  }
  const down = checks.filter((check) => !check.up).map((check) => check.label);
  return {
    state: 'degraded',
    checks,
    reason: down.length > 0 ? `Not working: ${down.join(', ')}.` : 'The engine reports that it is not ready.',
  };
}
