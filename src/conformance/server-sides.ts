// Which ServerSide plays the server for each transport a case can be
// replayed over (`mcpwire conformance --transport`).

import type { ServerSideFactory } from './server-side.js';
import { sseServerSides } from './sse-server-side.js';
import { stdioServerSides } from './stdio-server-side.js';
import { streamableHttpServerSides } from './streamable-http-server-side.js';
import { TRANSPORTS, type TranscriptTransport } from './transcript.js';

export const SERVER_SIDES: Readonly<Record<TranscriptTransport, ServerSideFactory>> = {
  stdio: stdioServerSides,
  'streamable-http': streamableHttpServerSides,
  sse: sseServerSides,
};

export function isReplayTransport(name: string): name is TranscriptTransport {
  return (TRANSPORTS as readonly string[]).includes(name);
}
