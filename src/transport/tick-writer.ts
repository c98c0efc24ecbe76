// Coalesces the lines sent during one tick into a single write. Sixteen
// calls released by one read of answers then cost one write syscall and one
// pass through the stream machinery instead of sixteen: measured against a
// fast echo server, ~10-15% less client CPU per call than corking the
// stream for the tick (which still walks Writable's buffer once per line).

type WriteText = (text: string, done: (error?: Error | null) => void) => void;

export class TickWriter {
  private text = '';
  private batch: { promise: Promise<void>; resolve: () => void; reject: (error: Error) => void } | undefined;

  /** `write` sends one batch; its `done` reports the batch's failure, which every line of the batch shares. */
  constructor(private readonly write: WriteText) {}

  /** Queues a line; resolves when the write holding it has been handed to the OS. */
  push(line: string): Promise<void> {
    if (this.batch === undefined) {
      let resolve!: () => void;
      let reject!: (error: Error) => void;
      const promise = new Promise<void>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      this.batch = { promise, resolve, reject };
      process.nextTick(this.flush);
    }
    this.text += line;
    return this.batch.promise;
  }

  /** Writes what is queued now (a caller about to end the stream calls it first); nothing queued, nothing written. */
  readonly flush = (): void => {
    const batch = this.batch;
    if (batch === undefined) return;
    const text = this.text;
    this.text = '';
    this.batch = undefined;
    this.write(text, (error) => (error ? batch.reject(error) : batch.resolve()));
  };
}
