// Regenerates the figures of docs/AUDIT.md (issue #20 item 3, SPEC G5) from
// what the runs left, so that no figure is kept in step by hand:
//   --mutation  the mutation scores, from each group's last Stryker result
//               (stryker/incremental/GROUP.json, committed: the same JSON
//               report schema) and how long it took (stryker/timings.json);
//               the survivors that are equivalent (stryker/equivalents.mjs)
//               and those that are not;
//   --coverage  lines and branches, from reports/coverage/summary.json
//               (scripts/coverage.mjs), and the property and fuzz runs of
//               that test run (their counts and seeds, from its TAP output).
// Always: every test AUDIT.md cites (`file.test.ts` «name») is looked up in
// its file; a name that is not there fails the report.
// Each figure lives between `<!-- generated:NAME -->` and
// `<!-- /generated:NAME -->`; the prose around them is hand-written.
//
//   node scripts/audit-report.mjs [--mutation] [--coverage]
//
// Exit status: 0 the figures are written and at their thresholds, every
// cited test exists; 1 otherwise. Plain Node ESM, no dependencies.

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { GROUPS, mutatedFile } from '../stryker/groups.mjs';
import { EQUIVALENTS } from '../stryker/equivalents.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DOC = path.join(ROOT, 'docs', 'AUDIT.md');

const read = (file) => JSON.parse(readFileSync(path.join(ROOT, file), 'utf8'));
const pct = (a, b) => (b === 0 ? '—' : `${(Math.floor((a / b) * 10000) / 100).toFixed(2)}%`);

/** Replaces the block NAME of the document; a block that is missing is an error in AUDIT.md. */
function replaceBlock(doc, name, body) {
  const begin = `<!-- generated:${name} -->`;
  const end = `<!-- /generated:${name} -->`;
  const i = doc.indexOf(begin);
  const j = doc.indexOf(end);
  if (i < 0 || j < i) throw new Error(`docs/AUDIT.md has no ${begin} … ${end} block`);
  return `${doc.slice(0, i + begin.length)}\n${body.trimEnd()}\n${doc.slice(j)}`;
}

// --- mutation ----------------------------------------------------------------------------------

/** Stryker's counting: detected = killed + timeout; the score is detected over everything that ran (compile errors did not). */
function countMutants(mutants) {
  const c = { Killed: 0, Timeout: 0, Survived: 0, NoCoverage: 0, CompileError: 0, RuntimeError: 0, Ignored: 0, Pending: 0 };
  for (const m of mutants) c[m.status] = (c[m.status] ?? 0) + 1;
  return c;
}

/**
 * The source text a mutant replaced (its range on one line; undefined over
 * several): for an entry's optional `code`, when one line holds several
 * conditions and only one of them is equivalent.
 */
function mutatedCode(mutant, lines) {
  const { start, end } = mutant.location;
  if (start.line !== end.line) return undefined;
  return (lines[start.line - 1] ?? '').slice(start.column - 1, end.column - 1);
}

export function matchEquivalent(file, mutant, lines) {
  const at = mutant.location.start.line - 1;
  const line = lines[at] ?? '';
  const before = lines.slice(Math.max(0, at - 3), at).join('\n');
  const replacements = (e) => (Array.isArray(e.replacement) ? e.replacement : [e.replacement]);
  const mutators = (e) => (Array.isArray(e.mutator) ? e.mutator : [e.mutator]);
  return EQUIVALENTS.find(
    (e) =>
      e.file === file &&
      mutators(e).includes(mutant.mutatorName) &&
      replacements(e).includes(mutant.replacement) &&
      line.includes(e.near) &&
      (e.prev === undefined || before.includes(e.prev)) &&
      (e.code === undefined || mutatedCode(mutant, lines) === e.code),
  );
}

export function mutationFigures() {
  const timings = existsSync(path.join(ROOT, 'stryker', 'timings.json')) ? read('stryker/timings.json') : { groups: {} };
  const groups = [];
  const used = new Set();
  for (const group of GROUPS) {
    const file = `stryker/incremental/${group.name}.json`;
    if (!existsSync(path.join(ROOT, file))) {
      groups.push({ group, missing: true });
      continue;
    }
    const report = read(file);
    const files = [];
    const entries = new Map();
    for (const entry of group.mutate) {
      const name = mutatedFile(entry);
      entries.set(name, entries.has(name) ? `${entries.get(name)},${entry.slice(name.length + 1)}` : entry);
    }
    for (const [name, entry] of entries) {
      const data = report.files[name];
      if (!data) {
        files.push({ name, entry, missing: true });
        continue;
      }
      const lines = data.source.split('\n');
      // A file audited by line ranges (stdio.ts): only the mutants inside them, as the group names them now.
      const ranges = [...entry.matchAll(/(\d+)-(\d+)/g)].map((m) => [Number(m[1]), Number(m[2])]);
      const inRange = (m) => ranges.length === 0 || ranges.some(([a, b]) => m.location.start.line >= a && m.location.start.line <= b);
      const mutants = data.mutants.filter(inRange);
      const counts = countMutants(mutants);
      const equivalent = [];
      const open = [];
      for (const m of mutants) {
        if (m.status !== 'Survived' && m.status !== 'NoCoverage') continue;
        const eq = matchEquivalent(name, m, lines);
        if (eq) {
          used.add(eq);
          equivalent.push({ m, eq, line: lines[m.location.start.line - 1].trim() });
        } else open.push({ m, line: lines[m.location.start.line - 1].trim() });
      }
      const detected = counts.Killed + counts.Timeout;
      const valid = detected + counts.Survived + counts.NoCoverage;
      const score = valid === 0 ? 100 : (detected / valid) * 100;
      const scoreExcl = valid - equivalent.length === 0 ? 100 : (detected / (valid - equivalent.length)) * 100;
      files.push({ name, entry, counts, detected, valid, score, scoreExcl, equivalent, open });
    }
    const present = files.filter((f) => !f.missing);
    const detected = present.reduce((a, f) => a + f.detected, 0);
    const valid = present.reduce((a, f) => a + f.valid, 0);
    const eqCount = present.reduce((a, f) => a + f.equivalent.length, 0);
    groups.push({
      group,
      files,
      detected,
      valid,
      score: valid === 0 ? 100 : (detected / valid) * 100,
      scoreExcl: valid - eqCount === 0 ? 100 : (detected / (valid - eqCount)) * 100,
      timing: timings.groups?.[group.name],
    });
  }
  const stale = EQUIVALENTS.filter((e) => !used.has(e));
  return { groups, stale, timings };
}

function mutationBlocks(figures) {
  const rows = [
    '| group | file | killed | timed out | survived | equivalent (of survived) | no test reached | dropped by the type checker | score | score without the equivalents | threshold |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  let ok = true;
  for (const g of figures.groups) {
    if (g.missing) {
      rows.push(`| ${g.group.name} | (not run yet) | | | | | | | | | ${g.group.break}% |`);
      ok = false;
      continue;
    }
    for (const f of g.files) {
      if (f.missing) {
        rows.push(`| ${g.group.name} | \`${f.entry}\` (not in the last run) | | | | | | | | | ${g.group.break}% |`);
        ok = false;
        continue;
      }
      // Judged without the listed equivalents (the classical score: an equivalent mutant is not a fault).
      const pass = f.scoreExcl >= g.group.break;
      if (!pass) ok = false;
      const c = f.counts;
      rows.push(
        `| ${g.group.name} | \`${f.entry}\` | ${c.Killed} | ${c.Timeout} | ${c.Survived} | ${f.equivalent.length} | ${c.NoCoverage} | ${c.CompileError} | ${f.score.toFixed(2)}% | ${f.scoreExcl.toFixed(2)}% ${pass ? '' : '**below**'} | ${g.group.break}% |`,
      );
    }
    if (g.scoreExcl < g.group.break) ok = false;
    rows.push(`| **${g.group.name}** | all | | | | | | | **${g.score.toFixed(2)}%** | **${g.scoreExcl.toFixed(2)}%** | ${g.group.break}% |`);
  }
  const timing = ['', '| group | test files run per mutant (at most) | last run | took | of which forced (every mutant tested) |', '|---|---:|---|---:|---|'];
  for (const g of figures.groups) {
    const t = g.timing;
    timing.push(`| ${g.group.name} | ${t?.tests ? `${t.tests.length} (only ${t.tests.map((f) => `\`${f}\``).join(', ')}: the survivors of a full run retested against the tests written since)` : g.group.tests.length} | ${t ? `${t.at.slice(0, 16).replace('T', ' ')} UTC, Node ${t.node}` : '—'} | ${t ? `${t.seconds} s` : '—'} | ${t ? (t.forced ? 'yes' : `no (${t.retested ?? '?'} mutants tested, the rest reused)`) : '—'} |`);
  }
  const mutation = [
    `Score = (killed + timed out) / (killed + timed out + survived + no test reached), Stryker's own; the threshold is judged, for each file and each group, on the score **without** the equivalents (survivors listed in \`stryker/equivalents.mjs\` are taken out of the denominator: the classical mutation score, since an equivalent mutant is not a fault); the score with them counted as survivors is printed beside it. Stryker's own \`thresholds.break\` is off, so a non-zero exit of Stryker means the run broke. Mutants the TypeScript checker rejects never run and count nowhere.`,
    '',
    ...rows,
    ...timing,
  ].join('\n');

  const eqLines = [];
  const openLines = [];
  for (const g of figures.groups) {
    for (const f of g.files ?? []) {
      for (const { m, eq, line } of f.equivalent ?? []) eqLines.push(`- \`${f.name}:${m.location.start.line}\` ${m.mutatorName} → \`${m.replacement.replace(/`/g, "'").replace(/\n/g, ' ').slice(0, 80)}\` in \`${line.slice(0, 90).replace(/`/g, "'")}\`: ${eq.why}`);
      for (const { m, line } of f.open ?? []) openLines.push(`- \`${f.name}:${m.location.start.line}\` ${m.mutatorName} → \`${m.replacement.replace(/`/g, "'").replace(/\n/g, ' ').slice(0, 80)}\` in \`${line.slice(0, 90).replace(/`/g, "'")}\``);
    }
  }
  const equivalents = [
    eqLines.length === 0 ? 'None listed.' : `${eqLines.length} survivor(s), each listed in \`stryker/equivalents.mjs\` with why it cannot be killed:\n\n${eqLines.join('\n')}`,
    ...(figures.stale.length > 0 ? ['', `Stale entries (match no survivor any more: remove them): ${figures.stale.map((e) => `\`${e.file}\` ${e.mutator} \`${e.near}\``).join('; ')}`] : []),
    '',
    openLines.length === 0 ? 'No other survivor: every other mutant is killed.' : `${openLines.length} survivor(s) neither killed nor shown equivalent (open work, counted against the scores above):\n\n${openLines.join('\n')}`,
  ].join('\n');
  return { mutation, equivalents, ok };
}

// --- coverage ----------------------------------------------------------------------------------

function coverageBlocks() {
  const file = 'reports/coverage/summary.json';
  if (!existsSync(path.join(ROOT, file))) throw new Error('no reports/coverage/summary.json: run `npm run coverage` first');
  const s = read(file);
  const rows = ['| file | lines | branches | lines not run | branches not taken (their line) |', '|---|---:|---:|---|---|'];
  let ok = true;
  for (const f of s.files) {
    if (!f.ok) ok = false;
    const where = f.only ? `${f.file}:${f.only}` : f.file;
    rows.push(
      `| \`${where}\` | ${f.lines.covered}/${f.lines.total} = ${f.lines.pct}%${f.lines.pct < s.thresholds.lines ? ' **below**' : ''} | ${f.branches.covered}/${f.branches.total} = ${f.branches.pct}%${f.branches.pct < s.thresholds.branches ? ' **below**' : ''} | ${f.uncoveredLines.join(', ') || '—'} | ${f.uncoveredBranches.join(', ') || '—'} |`,
    );
  }
  const coverage = [
    `From ${s.tests.length} test files (the mutation groups' tests), ${s.at.slice(0, 16).replace('T', ' ')} UTC, Node ${s.node}, ${s.seconds} s under c8. Thresholds: ${s.thresholds.lines}% of lines and ${s.thresholds.branches}% of branches, each file on its own.`,
    ...(s.failedTests?.length ? ['', `**That run had failing tests** (so it fails, whatever the figures): ${s.failedTests.map((t) => `«${t}»`).join(', ')}.`] : []),
    '',
    ...rows,
  ].join('\n');
  if (s.failedTests?.length) ok = false;
  const props = s.properties ?? [];
  const properties =
    props.length === 0
      ? 'No property runs were reported by the last coverage run.'
      : [
          `The seeded property and fuzz runs of that same test run (a failure names its seed; \`MCPWIRE_SEED=<seed>\` replays it, \`MCPWIRE_STRESS=1\` runs the large counts):`,
          '',
          '| test file | test | runs, seed, time |',
          '|---|---|---|',
          ...props.map((p) => `| \`${p.file}\` | ${p.test} | ${p.diagnostic} |`),
        ].join('\n');
  return { coverage, properties, ok };
}

// --- cited tests -------------------------------------------------------------------------------

/** `path/x.test.ts` «test name»: the form AUDIT.md cites a test in. */
const CITATION = /`([\w./-]+\.test\.ts)` «([^»]+)»/g;

function checkCitations(doc) {
  const found = [];
  const missing = [];
  for (const [, file, name] of doc.matchAll(CITATION)) {
    const full = path.join(ROOT, file);
    if (!existsSync(full)) {
      missing.push(`${file} (no such file)`);
      continue;
    }
    const text = readFileSync(full, 'utf8');
    // The name as written in a test('…') or describe('…') call, in any of the three quotes.
    // A backslash in a name is written doubled in the source ('\\r\\n line endings' is the test «\r\n line endings»).
    const forms = [name, name.replace(/\\/g, '\\\\')];
    if (forms.some((n) => [`'${n}'`, `"${n}"`, `\`${n}\``].some((q) => text.includes(q)))) found.push(`${file} ${name}`);
    else missing.push(`${file} «${name}»`);
  }
  const distinct = new Set(found).size;
  const body =
    missing.length === 0
      ? `${found.length} citations of ${distinct} distinct tests above; each test name was found in its file.`
      : `${missing.length} cited test(s) NOT found (fix the citation or the test):\n\n${missing.map((m) => `- ${m}`).join('\n')}`;
  return { body, ok: missing.length === 0 };
}

function main() {
  const { values } = parseArgs({ options: { mutation: { type: 'boolean' }, coverage: { type: 'boolean' } } });
  let doc = readFileSync(DOC, 'utf8');
  let ok = true;
  if (values.mutation) {
    const m = mutationBlocks(mutationFigures());
    doc = replaceBlock(doc, 'mutation', m.mutation);
    doc = replaceBlock(doc, 'equivalents', m.equivalents);
    if (!m.ok) {
      console.error('audit-report: a mutation score is below its threshold, or a group has not run (see docs/AUDIT.md)');
      ok = false;
    }
  }
  if (values.coverage) {
    const c = coverageBlocks();
    doc = replaceBlock(doc, 'coverage', c.coverage);
    doc = replaceBlock(doc, 'properties', c.properties);
    if (!c.ok) ok = false;
  }
  const cited = checkCitations(doc);
  doc = replaceBlock(doc, 'citations', cited.body);
  if (!cited.ok) {
    console.error(`audit-report: ${cited.body}`);
    ok = false;
  }
  writeFileSync(DOC, doc);
  console.log(`audit-report: docs/AUDIT.md regenerated${values.mutation ? ' (mutation)' : ''}${values.coverage ? ' (coverage)' : ''}`);
  process.exit(ok ? 0 : 1);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
