// The file groups of the mutation audit (issue #20 item 3, SPEC G5). Each
// group mutates a few source files and runs only the test files that
// exercise them, because Stryker's command runner re-runs the whole test
// command for every mutant: a group's run costs (its mutants) x (its tests).
// `break` is the group's threshold: 95 for the framing path (bytes to
// messages), 90 for the rest (issue #20). scripts/audit-report.mjs also
// checks each file against its group's threshold, so one strong file cannot
// carry a weak one.
//
// Test files are listed fastest and most specific first: the runner
// (scripts/audit-tests.mjs) stops at the first failing file, so a killed
// mutant usually costs one small file.

import { existsSync, readFileSync } from 'node:fs';

/** A file that only some versions of the tree have (the SSE reader's own parser): listed when it is there. */
const ifPresent = (file) => (existsSync(new URL(`../${file}`, import.meta.url)) ? [file] : []);

/**
 * `file:FROM-TO` for each [first, last] pair of line texts: the lines from
 * the one holding `first` to the next holding `last` (every occurrence of a
 * one-line pair). Found by text, not by number, so the ranges follow the
 * code when lines above it move.
 */
function linesOf(file, pairs) {
  const lines = readFileSync(new URL(`../${file}`, import.meta.url), 'utf8').split('\n');
  const out = [];
  for (const [first, last] of pairs) {
    let found = false;
    for (let i = 0; i < lines.length; i++) {
      if (!lines[i].includes(first)) continue;
      const j = lines.findIndex((line, k) => k >= i && line.includes(last));
      if (j < 0) break;
      out.push(`${file}:${i + 1}-${j + 1}`);
      found = true;
      if (first === last) continue;
      break;
    }
    if (!found) throw new Error(`stryker/groups.mjs: no line of ${file} holds ${JSON.stringify(first)}: the code moved, update the range`);
  }
  return out;
}

/** @type {{ name: string, break: number, mutate: string[], tests: string[] }[]} */
export const GROUPS = [
  {
    name: 'http',
    break: 90,
    mutate: ['src/transport/redirects.ts', 'src/transport/redact.ts', 'src/transport/http-headers.ts'],
    tests: [
      'src/transport/redact.audit.test.ts',
      'src/transport/http-headers.audit.test.ts',
      'src/transport/redirects.audit.test.ts',
      'src/transport/redact.test.ts',
      'src/transport/http-headers.test.ts',
      'spec-tests/T2-T3.redirects.test.ts',
      'spec-tests/T4.http-headers.test.ts',
    ],
  },
  {
    name: 'connection',
    break: 90,
    mutate: ['src/client/connection.ts'],
    tests: [
      'src/client/connection.audit.test.ts',
      'src/client/connection.audit2.test.ts',
      'src/client/connection.test.ts',
      'spec-tests/W4.jsonrpc-semantics.test.ts',
      'spec-tests/W5.server-requests.test.ts',
      'spec-tests/W6.notifications.test.ts',
      'spec-tests/W7.timeouts-and-cancellation.test.ts',
      'spec-tests/W8.typed-failures.test.ts',
      'spec-tests/client-seams.test.ts',
      'spec-tests/T3.renewal-gate.test.ts',
      // (not spec-tests/T5.reconnecting.test.ts: it starts server-everything by its path in node_modules,
      // which Stryker's sandbox does not resolve. What only it would kill shows up as a survivor here.)
    ],
  },
  {
    name: 'framing',
    break: 95,
    mutate: [
      'src/jsonrpc/line-framer.ts',
      'src/jsonrpc/message.ts',
      'src/transport/long-line-gate.ts',
      'src/transport/sse-stream.ts',
      ...ifPresent('src/transport/sse-parser.ts'),
      // stdio.ts: only where the framer is built, fed and ended (its read path), not the process handling.
      ...linesOf('src/transport/stdio.ts', [
        ['const overflow = (limitBytes', 'this.framer = createLongLineGate('],
        ["child.stdout!.on('data'", "child.stdout!.on('data'"],
        ['this.framer!.end();', 'this.framer!.end();'],
      ]),
    ],
    tests: [
      'src/jsonrpc/message.audit.test.ts',
      'src/jsonrpc/message.test.ts',
      'src/jsonrpc/line-framer.test.ts',
      'src/jsonrpc/line-framer.audit.test.ts',
      'src/transport/long-line-gate.audit.test.ts',
      'src/transport/long-line-gate.test.ts',
      ...ifPresent('src/transport/sse-parser.audit.test.ts'),
      'src/transport/sse-stream.test.ts',
      'src/transport/sse-stream.audit.test.ts',
      ...ifPresent('spec-tests/T2-T3.sse-parser.test.ts'),
      'spec-tests/W3.garbage.test.ts',
      'spec-tests/W1.stdio-framing.test.ts',
      'spec-tests/W1-W3.audit-stdio.test.ts',
      'spec-tests/W2.size-cap.test.ts',
      'spec-tests/W1-W3.framing-properties.test.ts',
    ],
  },
];

/** The files each group mutates, without a line range. */
export function mutatedFile(entry) {
  return entry.replace(/:\d+-\d+$/, '');
}
