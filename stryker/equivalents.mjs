// Surviving mutants of the mutation audit that no test can kill because
// they do not change what the code does (issue #20 item 3: "every surviving
// mutant is either killed by a new test or listed as equivalent with one
// line saying why"). scripts/audit-report.mjs matches each survivor against
// this list by file, mutator, replacement and a piece of its source line
// (`near`, so that the entry survives lines moving), lists the matches in
// docs/AUDIT.md with their reason, and reports any entry that matches no
// survivor any more (stale: the code changed, or a test now kills it).
// Source files are not annotated with Stryker's disable comments: the list
// lives here, beside the audit, and the code stays as it is.

/** @type {{ file: string, mutator: string, replacement: string, near: string, why: string }[]} */
export const EQUIVALENTS = [
  {
    file: 'src/transport/redact.ts',
    mutator: 'Regex',
    replacement: '/=+/',
    near: "base64.replace(/=+$/, '')",
    why: "base64 has '=' only at its end, so the first run of '=' is the last: anchoring at the end changes nothing.",
  },
  {
    file: 'src/transport/redact.ts',
    mutator: 'ConditionalExpression',
    replacement: 'true',
    near: 'if (out.includes(form)) out = out.split(form).join(REDACTED);',
    why: 'split and join of a text that does not hold the form give the text back: the includes() test only saves work.',
  },
  {
    file: 'src/transport/redact.ts',
    mutator: 'StringLiteral',
    replacement: '""',
    near: "return text.includes('@') ? text.replace(URL_USERINFO",
    why: "every text includes '', so the replace always runs; it finds nothing without an '@', so the text comes back unchanged: the test only saves work.",
  },
  {
    file: 'src/transport/redact.ts',
    mutator: 'ArithmeticOperator',
    replacement: 'text.length + start',
    near: 'for (let k = Math.min(form.length - 1, text.length - start); k > 0; k--) {',
    why: 'a larger bound only adds lengths k longer than the text left, whose startsWith() is false: the loop goes on down to the same first match.',
  },
];
