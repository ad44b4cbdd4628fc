/**
 * A redirect sign-in leaves the page. What the user asked for (provider, label, method, which
 * account to reconnect) is kept in sessionStorage so "Try again" after a refusal repeats it. No
 * secret is stored: the challenge's state and every token stay in the engine.
 */

const KEY = 'opl.connections.attempt';

export interface ConnectAttempt {
  readonly provider: string;
  readonly accountLabel: string | null;
  readonly authKind?: string;
  readonly reconnectAccountId?: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function saveAttempt(attempt: ConnectAttempt): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(attempt));
  } catch {
    // Storage may be off (private mode, quota): "Try again" then asks the user to choose again.
  }
}

/** Reads and forgets the attempt. */
export function takeAttempt(): ConnectAttempt | undefined {
  let raw: string | null;
  try {
    raw = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
  } catch {
    return undefined;
  }
  if (raw === null) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (!isRecord(value) || typeof value['provider'] !== 'string') return undefined;
  const label = value['accountLabel'];
  const attempt: { -readonly [K in keyof ConnectAttempt]: ConnectAttempt[K] } = {
    provider: value['provider'],
    accountLabel: typeof label === 'string' ? label : null,
  };
  if (typeof value['authKind'] === 'string') attempt.authKind = value['authKind'];
  if (typeof value['reconnectAccountId'] === 'string') attempt.reconnectAccountId = value['reconnectAccountId'];
  return attempt;
}
