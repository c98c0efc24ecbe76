// Deep equality of JSON values that reports the FIRST difference as a
// readable path (`params.arguments.message`, `tools[3].name`) with what was
// expected and what came. Key order is irrelevant; array order is not.

/** Longest rendering of one value inside a difference message. */
const SHOWN_CHARS = 120;

/** The first difference between two JSON values, or undefined when they are equal. */
export function firstDifference(expected: unknown, got: unknown, path = ''): string | undefined {
  const te = jsonType(expected);
  const tg = jsonType(got);
  if (te !== tg) return `${at(path)}expected ${show(expected)}, got ${show(got)}`;
  if (te === 'array') {
    const e = expected as unknown[];
    const g = got as unknown[];
    // A length difference is reported first: "expected 12 items, got 11" says more than item [7] shifted.
    if (e.length !== g.length) return `${at(path)}expected ${e.length} items, got ${g.length}`;
    for (let i = 0; i < e.length; i++) {
      const d = firstDifference(e[i], g[i], `${path}[${i}]`);
      if (d) return d;
    }
    return undefined;
  }
  if (te === 'object') {
    const e = expected as Record<string, unknown>;
    const g = got as Record<string, unknown>;
    for (const key of Object.keys(e)) {
      const sub = joinPath(path, key);
      if (!Object.hasOwn(g, key)) return `${sub}: missing (expected ${show(e[key])})`;
      const d = firstDifference(e[key], g[key], sub);
      if (d) return d;
    }
    for (const key of Object.keys(g)) {
      if (!Object.hasOwn(e, key)) return `${joinPath(path, key)}: unexpected key (got ${show(g[key])})`;
    }
    return undefined;
  }
  return expected === got ? undefined : `${at(path)}expected ${show(expected)}, got ${show(got)}`;
}

export function joinPath(path: string, key: string): string {
  const part = /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key);
  if (part === key) return path ? `${path}.${key}` : key;
  return `${path}[${part}]`;
}

function at(path: string): string {
  return path ? `${path}: ` : '';
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** A short JSON rendering for messages; long values are cut with their full length noted. */
export function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}… (${text.length} chars)` : text;
}
