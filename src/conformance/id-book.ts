// The map between what the transcript recorded and what the live client
// chose: request ids (the client's to choose, TRANSCRIPTS.md "Matching
// rules") and progress tokens. Filled by c2s matching, read when s2c lines
// are rewritten.

import type { RecordedId } from './transcript.js';

export class IdBook {
  private readonly recordedToLive = new Map<RecordedId, RecordedId>();
  private readonly liveToRecorded = new Map<RecordedId, RecordedId>();
  /** Recorded progressToken → the live request's token, or undefined when the live request carried none. */
  private readonly tokens = new Map<RecordedId, RecordedId | undefined>();

  /** The live id of recorded request `recorded`, if that request has been matched. */
  live(recorded: RecordedId): RecordedId | undefined {
    return this.recordedToLive.get(recorded);
  }

  /** Why binding `recorded` to `live` is wrong, or undefined when it is consistent. Does not bind. */
  conflict(recorded: RecordedId, live: RecordedId): string | undefined {
    const known = this.recordedToLive.get(recorded);
    if (known !== undefined && known !== live) {
      return `recorded request id ${JSON.stringify(recorded)} was already sent live as ${JSON.stringify(known)}, now ${JSON.stringify(live)}`;
    }
    const owner = this.liveToRecorded.get(live);
    if (owner !== undefined && owner !== recorded) {
      return `the client reused id ${JSON.stringify(live)} (already used for recorded request ${JSON.stringify(owner)}); request ids must be unique`;
    }
    return undefined;
  }

  bind(recorded: RecordedId, live: RecordedId): void {
    this.recordedToLive.set(recorded, live);
    this.liveToRecorded.set(live, recorded);
  }

  bindProgressToken(recorded: RecordedId, live: RecordedId | undefined): void {
    this.tokens.set(recorded, live);
  }

  /**
   * The token to send for a recorded progressToken: the live request's token;
   * the recorded one unchanged when the live request carried none or the
   * token belongs to no recorded request.
   */
  liveProgressToken(recorded: RecordedId): RecordedId {
    return this.tokens.get(recorded) ?? recorded;
  }
}
