/** A run that ends without (more) writes, and how the rule takes it: paused, retried sooner, or failed. */
export class RunEnd extends Error {
  readonly end: { kind: 'pause'; code: string } | { kind: 'retry'; code: string; at: Date | null } | { kind: 'fail'; code: string };
  constructor(end: RunEnd['end'], message: string) {
    super(message);
    this.end = end;
  }
}

/** This worker no longer holds the run (another took it over): it stops without changing more. */
export class LeaseGone extends Error {}
