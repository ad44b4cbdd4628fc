/** One dependency `/readyz` reports on. `check` rejects (with a message safe to show) when it is down. */
export interface ReadinessCheck {
  name: string;
  check: () => Promise<void>;
}

export interface ReadinessResult {
  status: 'ready' | 'not_ready';
  checks: Record<string, { status: 'up' | 'down'; detail?: string }>;
}

/** Runs every check in parallel, each bounded by `timeoutMs`, so a hung dependency cannot hang the probe. */
export async function runReadiness(checks: readonly ReadinessCheck[], timeoutMs = 3000): Promise<ReadinessResult> {
  const outcomes = await Promise.all(
    checks.map(async ({ name, check }) => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      });
      try {
        await Promise.race([check(), timeout]);
        return [name, { status: 'up' as const }] as const;
      } catch (error) {
        return [name, { status: 'down' as const, detail: error instanceof Error ? error.message : String(error) }] as const;
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  const result: ReadinessResult = { status: 'ready', checks: {} };
  for (const [name, outcome] of outcomes) {
    result.checks[name] = outcome;
    if (outcome.status === 'down') result.status = 'not_ready';
  }
  return result;
}
