// `mcpwire conformance [--transport stdio|streamable-http|sse] DIR|FILE...
// [--json] [--verbose]` (U1, X1): replays transcripts against McpClient over
// the chosen transport (default stdio). Exit 0 when no case fails (skipped
// ones do not count), 1 when one fails, 2 on a usage error.

import { parseArgs } from 'node:util';
import { collectTranscriptFiles, UsageError } from './discover.js';
import { caseLine, closingLine, jsonReport, totals } from './report.js';
import { runFiles } from './runner.js';
import { isReplayTransport, SERVER_SIDES } from './server-sides.js';
import { TRANSPORTS } from './transcript.js';

export const CONFORMANCE_USAGE = `Usage: mcpwire conformance [--transport T] DIR|FILE... [--json] [--verbose]

Replays MCP transcripts (see conformance/TRANSCRIPTS.md) against the mcpwire
client. A DIR stands for its *.jsonl files, in sorted order.

  --transport T  stdio (default): the client spawns a relay process;
                 streamable-http or sse: the runner serves each case on
                 127.0.0.1 and the client reaches it over that HTTP transport.
                 Over HTTP, cases with s2c raw/rawBase64 lines are skipped.
  --json         print one JSON object: {"cases":[{"name","status","detail"}],"passed","failed","skipped"}
  --verbose      also print each case's duration and what the runner did and saw
  -h, --help     show this help

Exit status: 0 no case failed, 1 a case failed, 2 usage error.`;

export async function runConformanceCommand(args: string[]): Promise<number> {
  let values: { json?: boolean; verbose?: boolean; help?: boolean; transport?: string };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: {
        json: { type: 'boolean' },
        transport: { type: 'string', short: 't' },
        verbose: { type: 'boolean', short: 'v' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    const code = (error as { code?: string }).code;
    const option = /'([^']+)'/.exec((error as Error).message)?.[1];
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option) return usageError(`unknown option ${option}; the options are --transport, --json, --verbose and --help`);
    return usageError((error as Error).message);
  }
  if (values.help) {
    process.stdout.write(`${CONFORMANCE_USAGE}\n`);
    return 0;
  }
  const transport = values.transport ?? 'stdio';
  if (!isReplayTransport(transport)) return usageError(`unknown transport ${JSON.stringify(transport)}; use one of ${TRANSPORTS.join(', ')}`);
  if (positionals.length === 0) return usageError('give at least one transcript file or directory of *.jsonl transcripts');

  let files: string[];
  try {
    files = await collectTranscriptFiles(positionals);
  } catch (error) {
    if (error instanceof UsageError) return usageError(error.message);
    throw error;
  }

  const json = values.json === true;
  const verbose = values.verbose === true;
  const results = await runFiles(files, {
    serverSides: SERVER_SIDES[transport],
    // Text output streams one line per case as it finishes; JSON is one object at the end.
    onCase: json ? undefined : (result) => process.stdout.write(`${caseLine(result, verbose)}\n`),
  });
  const t = totals(results);
  process.stdout.write(json ? `${jsonReport(results, verbose)}\n` : `${closingLine(t)}\n`);
  return t.failed === 0 ? 0 : 1;
}

function usageError(message: string): number {
  process.stderr.write(`mcpwire conformance: ${message}\n\n${CONFORMANCE_USAGE}\n`);
  return 2;
}
