// SSE workloads (Streamable HTTP responses): many small `message` events in
// 64 KiB reads, one event per read, and one 16 MiB event. Baseline: the
// JSON.parse floor over the events' data, extracted beforehand.

import { chunksOf, corpus, MIB, READ_64K, smallMessages, bigMessageText, type Corpus } from '../data.js';
import { floorBytes, floorString } from '../framers.js';
import { timed, type Contender, type Prepared, type Workload } from '../harness.js';
import { bodyOf, fetchSsePath, mcpwireSse, nodeSsePath, sdkSse, type SsePath } from '../sse-readers.js';

/** An SSE body as the SDK's server writes one: `event: message`, one `data:` line, a blank line. */
interface SseCorpus {
  /** The events' data, as the floors start from it. */
  data: Corpus;
  /** The body, one Buffer per event. */
  events: Buffer[];
  bytes: Buffer;
}

function sseCorpus(texts: string[]): SseCorpus {
  const events = texts.map((t) => Buffer.from(`event: message\ndata: ${t}\n\n`));
  return { data: corpus(texts), events, bytes: Buffer.concat(events) };
}

/**
 * mcpwire is measured on both of its request paths: `mcpwire` on the one
 * StreamableHttpTransport takes on Node by default (node:http), which the
 * targets judge, and `mcpwire-fetch` on fetch (Bun, Deno, a host's own
 * fetch), shown beside it (#20 item 2).
 */
function contenders(sse: SseCorpus, reads: Buffer[], unit: string, perUnit: number, expected: number, paths: { node: SsePath; fetch: SsePath }, repeats = 1): Contender[] {
  const repeat = (run: () => number | Promise<number>) => async () => {
    let n = 0;
    for (let i = 0; i < repeats; i++) n += await run();
    return n;
  };
  return [
    timed('floor-string', unit, perUnit, expected, repeat(() => floorString(sse.data.texts))),
    timed('floor-bytes', unit, perUnit, expected, repeat(() => floorBytes(sse.data.lines))),
    timed('mcpwire', unit, perUnit, expected, repeat(async () => mcpwireSse(await paths.node.open(reads)))),
    timed('mcpwire-fetch', unit, perUnit, expected, repeat(async () => mcpwireSse(await paths.fetch.open(reads)))),
    timed('sdk', unit, perUnit, expected, repeat(() => sdkSse(bodyOf(reads), true))),
    timed('sdk-novalidate', unit, perUnit, expected, repeat(() => sdkSse(bodyOf(reads), false))),
  ];
}

function smallEvents(quick: boolean): SseCorpus {
  return sseCorpus(smallMessages(quick ? 5_000 : 100_000).map((m) => JSON.stringify(m)));
}

/** The many-small-events workloads, which differ only in how the body is cut into reads. */
async function smallEventsWorkload(quick: boolean, readsOf: (sse: SseCorpus) => Buffer[]): Promise<Prepared> {
  const sse = smallEvents(quick);
  const n = sse.data.count;
  const paths = openPaths();
  // More rounds: cheap to sample, and their targets are tight ratios (see ndjson.ts).
  return { contenders: contenders(sse, readsOf(sse), 'ns/event', n / 1e6, n, paths), plan: quick ? {} : { rounds: 9 }, notes: quick ? [`--quick: ${n} events`] : [], dispose: paths.dispose };
}

function openPaths(): { node: SsePath; fetch: SsePath; dispose(): Promise<void> } {
  const node = nodeSsePath();
  const fetch = fetchSsePath();
  return {
    node,
    fetch,
    dispose: async () => {
      node.close();
      fetch.close();
    },
  };
}

export const sseWorkloads: Workload[] = [
  {
    id: 'sse-small-64k',
    title: '100k small message events (150–300 B of data), 64 KiB reads',
    baseline: 'floor-string',
    prepare: ({ quick }) => smallEventsWorkload(quick, (sse) => chunksOf(sse.bytes, READ_64K)),
  },
  {
    id: 'sse-per-event',
    title: '100k small message events, one event per read (a server flushing each message)',
    baseline: 'floor-string',
    prepare: ({ quick }) => smallEventsWorkload(quick, (sse) => sse.events),
  },
  {
    id: 'sse-16mib',
    title: 'one 16 MiB message event, 64 KiB reads',
    baseline: 'floor-string',
    async prepare({ quick }): Promise<Prepared> {
      const sse = sseCorpus([bigMessageText(16 * MIB)]);
      const repeats = quick ? 1 : 2;
      const paths = openPaths();
      // Native work dominates one big event (decoding, JSON.parse): --quick skips the warm-up.
      return { contenders: contenders(sse, chunksOf(sse.bytes, READ_64K), 'ms/MiB', 16 * repeats, repeats, paths, repeats), plan: quick ? { warmups: 0 } : {}, dispose: paths.dispose };
    },
  },
];
