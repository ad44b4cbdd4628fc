/**
 * The run no longer holds the job's lease: another worker took the job after this one stalled
 * past the lease, or the user cancelled it (which clears the lease). The run stops where it is,
 * without writing or recording anything more; whoever holds the job now carries on from the
 * persisted phase and settles any write this run left uncertain from the operation ledger.
 */
export class LeaseLost extends Error {
  override readonly name = 'LeaseLost';
}

/** What a write is fenced by: the worker that must still hold the job's lease, and for how long a write extends it. */
export interface LeaseFence {
  readonly worker: string;
  readonly seconds: number;
}
