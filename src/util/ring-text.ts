// Keeps the last N bytes of a byte stream (a server's stderr) for error
// messages, without growing: old bytes fall off the front.

export class ByteTail {
  private chunks: Buffer[] = [];
  private bytes = 0;

  constructor(private readonly limitBytes: number) {}

  push(chunk: Buffer): void {
    if (chunk.length >= this.limitBytes) {
      this.chunks = [chunk.subarray(chunk.length - this.limitBytes)];
      this.bytes = this.limitBytes;
      return;
    }
    this.chunks.push(chunk);
    this.bytes += chunk.length;
    while (this.bytes - this.chunks[0]!.length >= this.limitBytes) {
      this.bytes -= this.chunks.shift()!.length;
    }
  }

  /** The kept bytes as text; a character cut at the front is dropped rather than shown as U+FFFD. */
  text(): string {
    let joined = Buffer.concat(this.chunks, this.bytes);
    if (joined.length > this.limitBytes) joined = joined.subarray(joined.length - this.limitBytes);
    let start = 0;
    while (start < joined.length && start < 4 && (joined[start]! & 0xc0) === 0x80) start++;
    return joined.toString('utf8', start);
  }
}
