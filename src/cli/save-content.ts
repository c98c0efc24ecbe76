// `call --save DIR` (#18 item 14): the images, audio and blobs of a tool
// result decoded from base64 into files in DIR. A file is named after the
// resource's URI when that ends in a usable name, else after the tool and
// the block's place in the result, with the extension its MIME type
// implies; an existing file is never overwritten (`-2`, `-3` … are tried).

import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { CallToolResult, ContentBlock } from '../client/results.js';
import { UsageError } from './usage.js';

const EXTENSIONS: Readonly<Record<string, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/jpg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/svg+xml': 'svg',
  'image/bmp': 'bmp',
  'image/tiff': 'tiff',
  'image/x-icon': 'ico',
  'image/avif': 'avif',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/wave': 'wav',
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
  'audio/ogg': 'ogg',
  'audio/webm': 'weba',
  'audio/flac': 'flac',
  'audio/aac': 'aac',
  'audio/mp4': 'm4a',
  'application/pdf': 'pdf',
  'application/json': 'json',
  'application/gzip': 'gz',
  'application/x-gzip': 'gz',
  'application/zip': 'zip',
  'application/octet-stream': 'bin',
  'text/plain': 'txt',
  'text/markdown': 'md',
  'text/html': 'html',
  'text/csv': 'csv',
};

/** The file extension for a MIME type: a known one, else a plain subtype (`image/x-foo` → `x-foo`), else `bin`. */
export function extensionFor(mimeType: string | undefined): string {
  const bare = (mimeType ?? '').split(';')[0]!.trim().toLowerCase();
  const known = EXTENSIONS[bare];
  if (known) return known;
  const subtype = /^[a-z]+\/([a-z0-9][a-z0-9-]{0,15})$/.exec(bare)?.[1];
  return subtype ?? 'bin';
}

/** A name safe in any folder: no separators, no leading dot, nothing but [A-Za-z0-9._-]. */
function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '').slice(0, 100);
}

/** The last segment of a URI's path when it holds a name with an extension (`file:///x/chart.png` → `chart.png`). */
function nameFromUri(uri: string): string | undefined {
  let pathname: string;
  try {
    pathname = new URL(uri).pathname;
  } catch {
    return undefined;
  }
  const last = safeName(decodeURIComponent(pathname.split('/').pop() ?? ''));
  return /^[A-Za-z0-9_-][A-Za-z0-9._-]*\.[A-Za-z0-9]{1,8}$/.test(last) ? last : undefined;
}

interface Binary {
  data: string;
  mimeType: string | undefined;
  uri: string | undefined;
}

function binaryOf(block: ContentBlock): Binary | undefined {
  if (block.type === 'image' || block.type === 'audio') return { data: block.data, mimeType: block.mimeType, uri: undefined };
  if (block.type === 'resource' && typeof block.resource.blob === 'string') return { data: block.resource.blob, mimeType: block.resource.mimeType, uri: block.resource.uri };
  return undefined;
}

/**
 * Writes every image, audio and blob block of `result` into `dir` (made if
 * missing) and returns where each went, by block index. `tool` names the
 * files that have no name of their own: `get-tiny-image-2.png`.
 */
export function saveBinaryContent(result: CallToolResult, dir: string, tool: string): Map<number, string> {
  const saved = new Map<number, string>();
  const binaries = result.content.map(binaryOf);
  if (!binaries.some(Boolean)) return saved;
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw new UsageError(`--save ${dir}: cannot make the folder (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  const stem = safeName(tool.split('.').pop() ?? tool) || 'content';
  binaries.forEach((binary, index) => {
    if (!binary) return;
    const fromUri = binary.uri === undefined ? undefined : nameFromUri(binary.uri);
    const base = fromUri ?? `${stem}-${index + 1}.${extensionFor(binary.mimeType)}`;
    saved.set(index, writeNew(dir, base, Buffer.from(binary.data, 'base64')));
  });
  return saved;
}

/** Writes `bytes` to dir/base, or dir/stem-2.ext … when that is taken; never replaces a file. */
function writeNew(dir: string, base: string, bytes: Buffer): string {
  const dot = base.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [base.slice(0, dot), base.slice(dot)] : [base, ''];
  for (let n = 1; ; n++) {
    const file = path.join(dir, n === 1 ? base : `${stem}-${n}${ext}`);
    try {
      writeFileSync(file, bytes, { flag: 'wx' });
      return file;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST' && n < 1000) continue;
      throw new UsageError(`--save ${dir}: cannot write ${path.basename(file)} (${code ?? (error as Error).message})`);
    }
  }
}
