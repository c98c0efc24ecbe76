// The library's smoke run on another runtime (SPEC G3, issue #21 item 3):
// spec-tests/G3.bun-deno.test.ts runs this file with Bun and with Deno
// against servers it started on 127.0.0.1, and asserts on what it prints.
// Plain JavaScript importing the compiled dist/index.js, as a consumer on
// that runtime would, so nothing here depends on Node's TypeScript loader.
//
//   bun spec-tests/runtime-smoke/smoke.mjs '<json>'
//   deno run --node-modules-dir=manual --allow-net=127.0.0.1 --allow-read --allow-env --allow-run spec-tests/runtime-smoke/smoke.mjs '<json>'
//
// <json>: {"streamableUrl", "sseUrl", "node": a Node binary for stdio
// servers, "everything": server-everything's entry, "kaged": a kaged.yaml,
// "only": [check names] (optional)}. Prints one JSON line per check:
// {"check", "ok": true, ...what it saw} or {"check", "ok": false, "error"}.
// Each check closes what it opened; the run exits 0 once all have reported.

const input = JSON.parse(globalThis.process?.argv?.[2] ?? globalThis.Deno?.args?.[0] ?? '{}');
const { connect, openToolSource } = await import(new URL('../../dist/index.js', import.meta.url).href);

/** One check's bound: a run that hangs reports, rather than leaving the Node test to kill it. */
const CHECK_MS = 60_000;
const runtime = globalThis.Bun ? `bun ${globalThis.Bun.version}` : globalThis.Deno ? `deno ${globalThis.Deno.version.deno}` : `node ${globalThis.process?.version}`;

function report(line) {
  console.log(JSON.stringify(line));
}

async function check(name, body) {
  if (input.only && !input.only.includes(name)) return;
  let timer;
  try {
    const bounded = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_MS} ms`)), CHECK_MS);
    });
    report({ check: name, ok: true, runtime, ...(await Promise.race([body(), bounded])) });
  } catch (error) {
    report({ check: name, ok: false, runtime, error: `${error?.name}: ${error?.message}${error?.cause ? ` (cause: ${error.cause?.message ?? error.cause})` : ''}` });
  } finally {
    clearTimeout(timer);
  }
}

const textOf = (result) => result.content.filter((b) => b.type === 'text').map((b) => b.text).join('\n');

/** Lists the tools and calls echo: what every connection check does once connected. */
async function listAndCall(client, message) {
  const tools = (await client.listTools()).tools.map((t) => t.name);
  const echoed = textOf(await client.callTool('echo', { message }));
  return { tools: tools.length, hasEcho: tools.includes('echo'), echoed };
}

// Every fetch made through the runtime's global fetch is counted: which request path the default took.
const globalFetch = globalThis.fetch;
let globalFetches = 0;
globalThis.fetch = (...args) => {
  globalFetches++;
  return globalFetch(...args);
};

/** Connects with `params`, runs listAndCall, closes; the global fetches it made are part of the answer. */
async function roundTrip(params, message) {
  const before = globalFetches;
  const client = await connect(params);
  try {
    return { ...(await listAndCall(client, message)), globalFetches: globalFetches - before };
  } finally {
    await client.close();
  }
}

await check('streamable-http', () => roundTrip({ transport: 'streamable-http', url: input.streamableUrl }, `streamable on ${runtime}`));

await check('streamable-http-fetch-option', async () => {
  let own = 0;
  const fetch = (...args) => {
    own++;
    return globalFetch(...args);
  };
  return { ...(await roundTrip({ transport: 'streamable-http', url: input.streamableUrl, fetch }, 'through the fetch option')), ownFetches: own };
});

await check('sse', () => roundTrip({ transport: 'sse', url: input.sseUrl }, `legacy SSE on ${runtime}`));

await check('stdio', async () => {
  const client = await connect({ transport: 'stdio', command: input.node, args: [input.everything, 'stdio'] });
  try {
    return await listAndCall(client, `stdio on ${runtime}`);
  } finally {
    await client.close();
  }
});

await check('kaged', async () => {
  const source = await openToolSource({ project: input.kaged, startupTimeoutMs: 30_000 });
  try {
    const primary = source.forAgent('primary');
    const aliases = (await primary.tools()).map((t) => t.alias);
    const call = await primary.call('mcp_everything_echo', { message: `kaged on ${runtime}` });
    return { aliases, echoed: textOf(call.result), servers: source.status().map((s) => `${s.key}:${s.state}`) };
  } finally {
    await source.close();
  }
});

// Five legacy SSE sessions one after another: the later GET streams go out on keep-alive connections the
// earlier POSTs used, which is where Deno 2.9.6 left an aborted stream open (#21 item 3); every one must end at close().
// Last: a stream left open must be what keeps the runtime alive, not closed on the way by later checks' time.
await check('sse-sessions', async () => {
  let rounds = 0;
  for (let i = 0; i < 5; i++) {
    const client = await connect({ transport: 'sse', url: input.sseUrl });
    try {
      await client.listTools();
      rounds++;
    } finally {
      await client.close();
    }
  }
  return { rounds };
});
