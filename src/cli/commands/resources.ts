// `mcpwire resources`, `templates` and `read` (K1): a server's resources,
// its resource templates, and one resource's contents.

import { parseCommandLine } from '../options.js';
import { out } from '../process.js';
import { plural, printContents, printRows } from '../render.js';
import { withSession } from '../session.js';
import { UsageError } from '../usage.js';
import { listEach } from './listing.js';

export async function resources(args: string[]): Promise<number> {
  const line = parseCommandLine('resources', args);
  return withSession('resources', line, async (session) => {
    const { listed, status } = await listEach(session, 'resources', async (client) => (await client.listResources(session.requestOptions())).resources);
    if (line.values.json) out(`${JSON.stringify(listed.map((l) => ({ server: l.server, resources: l.items ?? [] })), null, 2)}\n`);
    else {
      for (const { server, items } of listed) {
        out(items === undefined ? `${server} (offers no resources)\n` : `${server} (${plural(items.length, 'resource')})\n`);
        printRows((items ?? []).map((r) => [r.uri, [r.title ?? r.name, r.mimeType].filter(Boolean).join('  ')]));
      }
    }
    return status;
  });
}

export async function templates(args: string[]): Promise<number> {
  const line = parseCommandLine('templates', args);
  return withSession('templates', line, async (session) => {
    const { listed, status } = await listEach(session, 'resources', async (client) => (await client.listResourceTemplates(session.requestOptions())).resourceTemplates);
    if (line.values.json) out(`${JSON.stringify(listed.map((l) => ({ server: l.server, resourceTemplates: l.items ?? [] })), null, 2)}\n`);
    else {
      for (const { server, items } of listed) {
        out(items === undefined ? `${server} (offers no resources)\n` : `${server} (${plural(items.length, 'template')})\n`);
        printRows((items ?? []).map((t) => [t.uriTemplate, [t.title ?? t.name, t.mimeType].filter(Boolean).join('  ')]));
      }
    }
    return status;
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
