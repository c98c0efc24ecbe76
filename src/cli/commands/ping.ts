// `mcpwire ping`: each server (or one) started and pinged, with the round trip.

import { exitCodeOf } from '../exit-codes.js';
import { parseCommandLine } from '../options.js';
import { err, out } from '../process.js';
import { withSession } from '../session.js';

export async function ping(args: string[]): Promise<number> {
  const line = parseCommandLine('ping', args);
  return withSession('ping', line, async (session) => {
    const keys = session.selected().filter((key) => session.source.status().find((s) => s.key === key)?.state !== 'disabled');
    const results = await Promise.all(
      keys.map(async (server) => {
        try {
          const ms = await session.source.withServer(server, async (client) => {
            const began = performance.now();
            await client.ping(session.requestOptions());
            return performance.now() - began;
          });
          return { server, ok: true as const, ms: Number(ms.toFixed(2)) };
        } catch (error) {
          return { server, ok: false as const, error };
        }
      }),
    );
    // One server: its failure is the command's, reported like any other command's error.
    if (keys.length === 1 && !results[0]!.ok) throw results[0]!.error;
    if (line.values.json) out(`${JSON.stringify(results.map((r) => (r.ok ? r : { server: r.server, ok: false, error: String((r.error as Error).message ?? r.error) })), null, 2)}\n`);
    else {
      const width = Math.max(...keys.map((k) => k.length));
      for (const r of results) {
        if (r.ok) out(`${r.server.padEnd(width)}  ok  ${r.ms} ms\n`);
        else err(`${r.server}: ${(r.error as Error).message?.split('\n')[0] ?? String(r.error)}\n`);
      }
    }
    const failure = results.find((r) => !r.ok);
    return failure && !failure.ok ? exitCodeOf(failure.error) : 0;
  });
}
