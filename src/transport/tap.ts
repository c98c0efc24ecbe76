// A tap on a transport: every message it sends and every value it delivers,
// reported to an observer before it goes on, for a person who wants to see
// the wire (the CLI's --verbose). It changes nothing that passes through and
// knows no MCP method; values are reported as they are, secrets included, so
// an observer that prints them must scrub them first.

import type { Transport } from './transport.js';

/** One message on the wire: `send` from the client, `receive` from the server (a decoded value, possibly not JSON-RPC). */
export interface WireEntry {
  server: string;
  direction: 'send' | 'receive';
  message: unknown;
}

/**
 * Wraps `send` and the `onMessage` handler of `transport` in place, so that
 * its getters and state (pid, kind, stderr tail) stay the transport's own.
 * An observer that throws is ignored: seeing the wire must not change it.
 */
export function tapTransport<T extends Transport>(transport: T, observe: (entry: WireEntry) => void): T {
  const report = (direction: WireEntry['direction'], message: unknown) => {
    try {
      observe({ server: transport.server, direction, message });
    } catch {
      // deliberately ignored: see above
    }
  };
  const send = transport.send.bind(transport);
  const start = transport.start.bind(transport);
  transport.send = (message, options) => {
    report('send', message);
    return send(message, options);
  };
  transport.start = (handlers) =>
    start({
      ...handlers,
      onMessage: (value) => {
        report('receive', value);
        handlers.onMessage(value);
      },
    });
  return transport;
}
