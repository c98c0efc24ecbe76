// What the listing commands share: the selected servers that offer a
// capability, each asked concurrently; a server that cannot start is
// reported on stderr and sets the exit status, without hiding the others.

import type { McpClient } from '../../client/client.js';
import { exitCodeOf } from '../exit-codes.js';
import { parseCommandLine } from '../options.js';
import { err, out } from '../process.js';
import { plural, printRows } from '../render.js';
import { withSession, type Session } from '../session.js';

export interface Listed<T> {
  server: string;
  /** undefined: the server does not offer the capability. */
  items: T[] | undefined;
}

/** One server's outcome in eachServer: what `run` returned, or why it failed. */
export type EachOutcome<T> = { server: string; ok: true; value: T } | { server: string; ok: false; error: unknown };

/**
 * Runs `run` on every selected, enabled server, concurrently (the one walk
 * over servers that listing commands and ping share). With one server
 * selected, its failure is thrown as the command's; with several, each
 * server's outcome is returned in order.
 */
export async function eachServer<T>(session: Session, run: (client: McpClient, server: string) => Promise<T>): Promise<EachOutcome<T>[]> {
  const keys = session.selected().filter((key) => session.source.status().find((s) => s.key === key)?.state !== 'disabled');
  const settled = await Promise.allSettled(keys.map((server) => session.source.withServer(server, (client) => run(client, server))));
  if (keys.length === 1 && settled[0]!.status === 'rejected') throw settled[0]!.reason;
  return settled.map((result, k) => (result.status === 'fulfilled' ? { server: keys[k]!, ok: true, value: result.value } : { server: keys[k]!, ok: false, error: result.reason }));
}

/** The first line of a failure, as the multi-server commands print it on stderr after the server's key. */
export function failureLine(error: unknown): string {
  return String((error as Error).message ?? error).split('\n')[0]!;
}

/**
 * Runs `list` on every selected, enabled server that declares `capability`
 * in its initialize answer. With one server selected, its failure is thrown
 * as the command's; with several, each is printed and the first one's
 * status returned beside what the others listed.
 */
export async function listEach<T>(session: Session, capability: 'resources' | 'prompts', list: (client: McpClient) => Promise<T[]>): Promise<{ listed: Listed<T>[]; status: number }> {
  const outcomes = await eachServer(session, async (client) => (client.profile?.capabilities[capability] === undefined ? undefined : await list(client)));
  let status = 0;
  const listed: Listed<T>[] = [];
  for (const outcome of outcomes) {
    if (outcome.ok) listed.push({ server: outcome.server, items: outcome.value });
    else {
      err(`${outcome.server}: ${failureLine(outcome.error)}\n`);
      if (status === 0) status = exitCodeOf(outcome.error);
    }
  }
  return { listed, status };
}

/** One listing command: what it lists, under which JSON key, and how an item reads as a row. */
export interface ListingSpec<T> {
  command: string;
  capability: 'resources' | 'prompts';
  list(client: McpClient, session: Session): Promise<T[]>;
  /** The key of each server's items in --json output, and the noun for a count (singular). */
  jsonKey: string;
  noun: string;
  row(item: T): [string, string];
}

/** Runs a listing command: every selected server's items, as JSON or as rows under a header per server. */
export function runListing<T>(args: string[], spec: ListingSpec<T>): Promise<number> {
  const line = parseCommandLine(spec.command, args);
  return withSession(spec.command, line, async (session) => {
    const { listed, status } = await listEach(session, spec.capability, (client) => spec.list(client, session));
    if (line.values.json) out(`${JSON.stringify(listed.map((l) => ({ server: l.server, [spec.jsonKey]: l.items ?? [] })), null, 2)}\n`);
    else {
      for (const { server, items } of listed) {
        out(items === undefined ? `${server} (offers no ${spec.capability})\n` : `${server} (${plural(items.length, spec.noun)})\n`);
        printRows((items ?? []).map(spec.row));
      }
    }
    return status;
  });
}
