// Citations stay inside the project (issue 14): comments cite the project's own documents as
// `docs/<NAME>.md §<section>`, and every section cited has a numbered heading there. The documents the
// code was first written against live outside the repository and do not ship with it, so a citation of
// them (bare "SPEC §", "reference §", the reference files' names, the shared style guide, paths into
// ../shared) fails here, naming file:line. In docs/*.md a bare `§N` means the document itself.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const SELF = path.relative(ROOT, fileURLToPath(import.meta.url)).split(path.sep).join('/');

/** Where citations may appear: the project's sources, scripts, benchmarks, e2e tests and documents. */
const IN_SCOPE = /^(?:(?:packages|scripts|bench|e2e|docs)\/|README\.md$)/;
/** Text files only; lock files and JSON hold no comments. */
const TEXT_FILE = /\.(?:[cm]?[jt]sx?|md|css|less|html|ya?ml|sh)$/;

/** Citations of documents outside the repository. */
const OUTSIDE: { pattern: RegExp; what: string }[] = [
  { pattern: /(?<![\w/.-])SPEC(?:\.md)?\s?§/, what: 'the outside SPEC (cite docs/SPEC.md §N)' },
  { pattern: /\breference\s(?:gateway\s)?§/i, what: 'the outside reference (cite docs/ORIGINAL-API.md or docs/ORIGINAL-GATEWAY.md §N)' },
  { pattern: /gateway-semantics|upstream-admin-api|agent-clients\.md/, what: 'an outside reference file' },
  { pattern: /\bSTYLE(?:\.md)?(?:\s?§|\s+rules?\b|:)/, what: 'the outside style guide' },
  { pattern: /\.\.\/shared\b|\bshared\/reference\b|\/work\/shared\b/, what: 'a path outside the repository' },
];

/** A document's path, or a section sign with its number. */
const TOKEN = /(docs\/[\w.-]+\.md)|§\s?(\d+(?:\.\d+)*)/g;
/** A numbered heading: `## 3.5 Model`, `### 1.2. Verbs`, `## §4 …`. */
const HEADING = /^#{1,6}\s+§?(\d+(?:\.\d+)*)\.?(?:\s|$)/;
/** Section signs of other standards, which are not ours to check. */
const FOREIGN_SECTION = /\b(?:RFC|ISO|IEC|ECMA-?)\s?\d+[\w-]*\s*$/;

function trackedFiles(): string[] {
  // Tracked and not-yet-committed files alike: a new document or comment is checked before it lands.
  const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return [...new Set(out.split('\0'))].filter((f) => f && IN_SCOPE.test(f) && TEXT_FILE.test(f) && f !== SELF && existsSync(path.join(ROOT, f))).sort();
}

const headingCache = new Map<string, Set<string> | null>();
/** The section numbers a document's headings carry; null when the document does not exist. */
function sectionsOf(doc: string): Set<string> | null {
  if (!headingCache.has(doc)) {
    const file = path.join(ROOT, doc);
    headingCache.set(doc, existsSync(file) ? new Set(readFileSync(file, 'utf8').split('\n').flatMap((l) => HEADING.exec(l)?.[1] ?? [])) : null);
  }
  return headingCache.get(doc)!;
}

/** Every problem of one file's citations, as `file:line: message`. */
function citationProblems(file: string, text: string): string[] {
  const problems: string[] = [];
  const ownDoc = /^docs\/[^/]+\.md$/.test(file) ? file : null;
  text.split('\n').forEach((line, i) => {
    const at = `${file}:${i + 1}`;
    const outside = OUTSIDE.filter(({ pattern }) => pattern.test(line));
    for (const { what } of outside) problems.push(`${at}: cites ${what}: ${line.trim()}`);
    let doc = ownDoc;
    for (const m of line.matchAll(TOKEN)) {
      if (m[1]) {
        doc = m[1];
        if (!sectionsOf(doc)) problems.push(`${at}: cites ${doc}, which does not exist`);
        continue;
      }
      const section = m[2]!;
      if (!doc) {
        // An outside citation is reported once, above; a bare section of another standard is not ours.
        if (!outside.length && !FOREIGN_SECTION.test(line.slice(0, m.index))) problems.push(`${at}: §${section} names no document (write docs/<NAME>.md §${section})`);
        continue;
      }
      const sections = sectionsOf(doc);
      if (sections && !sections.has(section)) problems.push(`${at}: ${doc} has no heading for §${section}`);
    }
  });
  return problems;
}

describe('citations of documents', () => {
  it('flags outside documents, documentless sections and missing headings', () => {
    expect(citationProblems('packages/x.ts', '// SPEC §9: money')).toHaveLength(1);
    expect(citationProblems('packages/x.ts', '// (reference §3.5, §2.8)')[0]).toContain('outside reference');
    expect(citationProblems('packages/x.ts', '// see gateway-semantics §1.4')[0]).toContain('outside reference file');
    expect(citationProblems('packages/x.ts', '// continued (§1.4)')[0]).toContain('names no document');
    expect(citationProblems('packages/x.ts', '// URL state (STYLE rule 11)')[0]).toContain('style guide');
    expect(citationProblems('packages/x.ts', '// docs/SPEC.md §999.1')[0]).toContain('no heading for §999.1');
    expect(citationProblems('packages/x.ts', '// docs/NOPE.md §1')[0]).toContain('does not exist');
    expect(citationProblems('packages/x.ts', '// RFC 5952 §5: the dotted tail')).toEqual([]);
    expect(citationProblems('packages/x.ts', '// docs/SPEC.md §9 and §2.3')).toEqual([]);
  });

  it('every citation in the repository points at a heading of a document in docs/', () => {
    const problems = trackedFiles().flatMap((f) => citationProblems(f, readFileSync(path.join(ROOT, f), 'utf8')));
    expect(problems).toEqual([]);
  });
});
