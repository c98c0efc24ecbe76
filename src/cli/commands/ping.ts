// `mcpwire ping`: each server (or one) started and pinged, with the round trip.

import { exitCodeOf } from '../exit-codes.js';
import { parseCommandLine } from '../options.js';
import { err, out } from '../process.js';
import { withSession } from '../session.js';
import { eachServer, failureLine } from './listing.js';

export async function ping(args: string[]): Promise<number> {
  const line = parseCommandLine('ping', args);
  return withSession('ping', line, async (session) => {
    const results = await eachServer(session, async (client) => {
      const began = performance.now();
      await client.ping(session.requestOptions());
      return Number((performance.now() - began).toFixed(2));
    });
    if (line.values.json) {
      out(`${JSON.stringify(results.map((r) => (r.ok ? { server: r.server, ok: true, ms: r.value } : { server: r.server, ok: false, error: String((r.error as Error).message ?? r.error) })), null, 2)}\n`);
    } else {
      const width = Math.max(...results.map((r) => r.server.length));
      for (const r of results) {
        if (r.ok) out(`${r.server.padEnd(width)}  ok  ${r.value} ms\n`);
        else err(`${r.server}: ${failureLine(r.error)}\n`);
      }
    }
    const failure = results.find((r) => !r.ok);
    return failure && !failure.ok ? exitCodeOf(failure.error) : 0;
  });
}
