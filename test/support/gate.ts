/**
 * A point where one asynchronous step of the code under test stops until the test lets it go on,
 * so two operations can be interleaved in an exact order.
 */
export interface Gate {
  /** Called by the stopped step: resolves once the test opens the gate. */
  pass(): Promise<void>;
  /** Resolves once a step is waiting at the gate. */
  readonly reached: Promise<void>;
  open(): void;
}

export function gate(): Gate {
  let arrive!: () => void;
  let release!: () => void;
  const reached = new Promise<void>((resolve) => { arrive = resolve; });
  const opened = new Promise<void>((resolve) => { release = resolve; });
  return {
    reached,
    open: () => release(),
    async pass() {
      arrive();
      await opened;
    },
  };
}
