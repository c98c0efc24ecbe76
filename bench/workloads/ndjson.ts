// stdio framing workloads (newline-delimited JSON): many small messages,
// 4 KiB tool results, multi-byte text, and single messages of 1–32 MiB.
// Baseline: the bytes floor (Buffer.toString + JSON.parse of pre-split lines).

import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { bigMessageText, chunksOf, corpus, MIB, READ_64K, smallMessages, tinyChunksOf, toolResults, utf8Messages, type Corpus } from '../data.js';
import { floorBytes, floorString, mcpwire, ndjsonParse, sdk, sdkNoValidate } from '../framers.js';
import { timed, type Contender, type Prepared, type Workload, type WorkloadId } from '../harness.js';

type Reads = '64k' | 'tiny';

/** Every framing contender over the same corpus and reads, in ns per message. */
function perMessage(data: Corpus, reads: Reads): Contender[] {
  const chunks = reads === '64k' ? chunksOf(data.bytes, READ_64K) : tinyChunksOf(data.bytes);
  const perUnit = data.count / 1e6; // ms → ns per message
  const n = data.count;
  return [
    timed('floor-bytes', 'ns/msg', perUnit, n, () => floorBytes(data.lines)),
    timed('floor-string', 'ns/msg', perUnit, n, () => floorString(data.texts)),
    timed('mcpwire', 'ns/msg', perUnit, n, () => mcpwire(chunks)),
    timed('sdk', 'ns/msg', perUnit, n, () => sdk(chunks)),
    timed('sdk-novalidate', 'ns/msg', perUnit, n, () => sdkNoValidate(chunks)),
    timed('ndjson', 'ns/msg', perUnit, n, () => ndjsonParse(chunks)),
  ];
}

function manyMessages(id: WorkloadId, title: string, reads: Reads, make: (quick: boolean) => Corpus): Workload {
  return {
    id,
    title,
    baseline: 'floor-bytes',
    async prepare({ quick }): Promise<Prepared> {
      const data = make(quick);
      return {
        contenders: perMessage(data, reads),
        // 64 KiB reads are cheap to sample and carry the tightest targets (≤ 1.05× the floor): more rounds keep their median steady through the machine's load bursts.
        plan: reads === '64k' && !quick ? { rounds: 9 } : {},
        notes: quick ? [`--quick: ${data.count} messages`] : [],
      };
    },
  };
}

const small = (quick: boolean) => corpus(smallMessages(quick ? 5_000 : 100_000).map((m) => JSON.stringify(m)));
const medium = (quick: boolean) => corpus(toolResults(quick ? 500 : 10_000).map((m) => JSON.stringify(m)));
const utf8 = (quick: boolean) => corpus(utf8Messages(quick ? 100 : 1_000).map((m) => JSON.stringify(m)));

/**
 * One message of `mib` MiB in 64 KiB reads, in ms per MiB so the sizes can
 * be compared (flat ms/MiB = cost linear in bytes). Each sample frames it
 * enough times to cover 32 MiB, so a sample is long enough to time.
 */
function bigMessage(id: WorkloadId, mib: number): Workload {
  return {
    id,
    title: `one ${mib} MiB message, 64 KiB reads`,
    baseline: 'floor-bytes',
    async prepare({ quick }): Promise<Prepared> {
      const data = corpus([bigMessageText(mib * MIB)]);
      const chunks = chunksOf(data.bytes, READ_64K);
      const repeats = quick ? 1 : Math.max(1, 32 / mib);
      const repeat = (run: () => number | Promise<number>) => async () => {
        let n = 0;
        for (let i = 0; i < repeats; i++) n += await run();
        return n;
      };
      // The SDK refuses a message over its 10 MiB default (it throws from append()); its cap is raised so its algorithm can be measured at all.
      const sdkCap = Math.max(STDIO_DEFAULT_MAX_BUFFER_SIZE, data.bytes.length + READ_64K);
      const notes = sdkCap > STDIO_DEFAULT_MAX_BUFFER_SIZE ? ['sdk and sdk-novalidate: the SDK refuses messages over 10 MiB by default; measured with its maxBufferSize raised to fit'] : [];
      const contenders: Contender[] = [
        timed('floor-bytes', 'ms/MiB', mib * repeats, repeats, repeat(() => floorBytes(data.lines))),
        timed('floor-string', 'ms/MiB', mib * repeats, repeats, repeat(() => floorString(data.texts))),
        timed('mcpwire', 'ms/MiB', mib * repeats, repeats, repeat(() => mcpwire(chunks))),
      ];
      // The SDK copies its whole buffer on every read (Buffer.concat): quadratic, ~7 s for one 32 MiB message here.
      if (quick && mib >= 32) notes.push('sdk, sdk-novalidate: skipped in --quick (quadratic in the message size: seconds per sample); see the full run');
      else {
        contenders.push(
          timed('sdk', 'ms/MiB', mib * repeats, repeats, repeat(() => sdk(chunks, sdkCap))),
          timed('sdk-novalidate', 'ms/MiB', mib * repeats, repeats, repeat(() => sdkNoValidate(chunks, sdkCap))),
        );
      }
      // ndjson (split2) re-splits its whole pending string on every read: quadratic, ~6 s at 16 MiB and ~20 s at 32 MiB here.
      if (quick && mib >= 16) notes.push('ndjson: skipped in --quick (quadratic in the message size: seconds per sample); see the full run');
      else contenders.push(timed('ndjson', 'ms/MiB', mib * repeats, repeats, repeat(() => ndjsonParse(chunks))));
      // Big messages spend their time in native code (toString, JSON.parse, copies), not in JIT-compiled loops: --quick skips the warm-up.
      return { contenders, notes, plan: quick ? { warmups: 0 } : {} };
    },
  };
}

export const ndjsonWorkloads: Workload[] = [
  manyMessages('ndjson-small-64k', '100k small messages (150–300 B, mixed requests/results/notifications), 64 KiB reads', '64k', small),
  manyMessages('ndjson-small-tiny', '100k small messages, random 1–100 B reads', 'tiny', small),
  manyMessages('ndjson-medium-64k', '10k ~4 KiB tool results, 64 KiB reads', '64k', medium),
  manyMessages('ndjson-medium-tiny', '10k ~4 KiB tool results, random 1–100 B reads', 'tiny', medium),
  manyMessages('ndjson-utf8-64k', '1k ~8 KiB results of multi-byte UTF-8 text, 64 KiB reads (characters cut across reads)', '64k', utf8),
  bigMessage('ndjson-1mib', 1),
  bigMessage('ndjson-4mib', 4),
  bigMessage('ndjson-16mib', 16),
  bigMessage('ndjson-32mib', 32),
];
