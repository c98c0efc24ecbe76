// `mcpwire resources`, `templates` and `read` (K1): a server's resources,
// its resource templates, and one resource's contents.

import { parseCommandLine } from '../options.js';
import { out } from '../process.js';
import { printContents } from '../render.js';
import { withSession } from '../session.js';
import { UsageError } from '../usage.js';
import { runListing } from './listing.js';

export function resources(args: string[]): Promise<number> {
  return runListing(args, {
    command: 'resources',
    capability: 'resources',
    list: async (client, session) => (await client.listResources(session.requestOptions())).resources,
    jsonKey: 'resources',
    noun: 'resource',
    row: (r) => [r.uri, [r.title ?? r.name, r.mimeType].filter(Boolean).join('  ')],
  });
}

export function templates(args: string[]): Promise<number> {
  return runListing(args, {
    command: 'templates',
    capability: 'resources',
    list: async (client, session) => (await client.listResourceTemplates(session.requestOptions())).resourceTemplates,
    jsonKey: 'resourceTemplates',
    noun: 'template',
    row: (t) => [t.uriTemplate, [t.title ?? t.name, t.mimeType].filter(Boolean).join('  ')],
  });
}

export async function read(args: string[]): Promise<number> {
  const line = parseCommandLine('read', args);
  const [uri, ...extra] = line.positionals;
  if (uri === undefined || extra.length > 0) throw new UsageError('read takes one URI, e.g. mcpwire read file:///etc/hosts --server files (see mcpwire resources)');
  return withSession('read', line, async (session) => {
    const server = session.oneServer('read');
    const result = await session.source.withServer(server, (client) => client.readResource(uri, session.requestOptions()));
    if (line.values.json) out(`${JSON.stringify(result, null, 2)}\n`);
    else printContents(result.contents);
    return 0;
  });
}
