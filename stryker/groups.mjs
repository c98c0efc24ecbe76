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

/** @type {{ name: string, break: number, mutate: string[], tests: string[] }[]} */
export const GROUPS = [
  {
    name: 'http',
    break: 90,
    mutate: ['src/transport/redirects.ts', 'src/transport/redact.ts', 'src/transport/http-headers.ts'],
    tests: [
      'src/transport/redact.test.ts',
      'src/transport/http-headers.test.ts',
      'spec-tests/W.audit-http.test.ts',
      'spec-tests/T2-T3.redirects.test.ts',
      'spec-tests/T4.http-headers.test.ts',
    ],
  },
  {
    name: 'connection',
    break: 90,
    mutate: ['src/client/connection.ts'],
    tests: [
      'src/client/connection.test.ts',
      'spec-tests/W4-W8.audit-connection.test.ts',
      'spec-tests/W4.jsonrpc-semantics.test.ts',
      'spec-tests/W5.server-requests.test.ts',
      'spec-tests/W6.notifications.test.ts',
      'spec-tests/W7.timeouts-and-cancellation.test.ts',
      'spec-tests/W8.typed-failures.test.ts',
      'spec-tests/client-seams.test.ts',
      'spec-tests/T3.renewal-gate.test.ts',
      'spec-tests/T5.reconnecting.test.ts',
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
      // stdio.ts: only where the framer is built and fed (its read path), not the process handling.
      'src/transport/stdio.ts:199-262',
    ],
    tests: [
      'src/jsonrpc/message.test.ts',
      'src/jsonrpc/line-framer.test.ts',
      'src/jsonrpc/line-framer.audit.test.ts',
      'src/transport/long-line-gate.test.ts',
      'src/transport/sse-stream.test.ts',
      'src/transport/sse-stream.audit.test.ts',
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
