// `mcpwire servers`: start every server and show its state (S5).

import { parseCommandLine } from '../options.js';
import { out } from '../process.js';
import { protocolOfStatus, protocolText, statusWithEra } from '../protocol.js';
import { failureOf, failureStatus, withSession } from '../session.js';

export async function servers(args: string[]): Promise<number> {
  const line = parseCommandLine('servers', args);
  return withSession('servers', line, async (session) => {
    const failed = await session.start();
    const wanted = new Set(session.selected());
    const statuses = session.source.status().filter((s) => wanted.has(s.key));
    if (line.values.json) out(`${JSON.stringify(statuses.map((s) => statusWithEra(s, session.protocol(s.key))), null, 2)}\n`);
    else {
      for (const s of statuses) {
        const protocol = protocolOfStatus(s, session.protocol(s.key));
        const detail = s.state === 'ready' ? `${s.tools} tools${s.pid !== undefined ? `, pid ${s.pid}` : ''}${protocol ? `, ${protocolText(protocol)}` : ''}` : (failureOf(s) ?? s.reason ?? '');
        out(`${s.key.padEnd(16)} ${s.transport.padEnd(16)} ${s.state.padEnd(10)} ${detail.split('\n')[0]}\n`);
      }
    }
    return failureStatus(failed);
  });
}
