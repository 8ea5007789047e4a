/**
 * The documents' links and the code's citations of them stay true: every relative link of
 * README.md, CONTRIBUTING.md and docs/*.md names an existing file (and, with `#anchor`, an
 * existing heading of it), and so does every `docs/NAME.md#anchor` cited anywhere in the tracked
 * files (code comments, migrations, documents). A heading renamed or a section moved fails here,
 * naming each stale link or citation by file and line.
 *
 * Anchors are GitHub's: the heading's text in lower case, punctuation dropped, spaces turned into
 * hyphens, `-1`, `-2` … after a repeated one.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Documents made by another step and linked before they exist: a link to one is checked once the
 * file is there. docs/schema.md is generated from db/read-model/.
 */
const GENERATED_LATER = new Set(['docs/schema.md']);

const DOCUMENTS = ['README.md', 'CONTRIBUTING.md', ...readdirSync(join(ROOT, 'docs')).filter((n) => n.endsWith('.md')).map((n) => `docs/${n}`)]
  .filter((file) => existsSync(join(ROOT, file)))
  .sort();

/** GitHub's anchor for a heading's text. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The lines of a Markdown text outside fenced code blocks, with their 1-based numbers; inline code blanked. */
function proseLines(text: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let fenced = false;
  text.split('\n').forEach((line, i) => {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      return;
    }
    if (!fenced) out.push({ line: i + 1, text: line });
  });
  return out;
}

/** The anchors of a Markdown file's headings, as GitHub makes them. */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { text: line } of proseLines(text)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = slug(heading);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

const anchorCache = new Map<string, Set<string>>();
function anchorsOfFile(file: string): Set<string> {
  let anchors = anchorCache.get(file);
  if (!anchors) {
    anchors = anchorsOf(readFileSync(join(ROOT, file), 'utf8'));
    anchorCache.set(file, anchors);
  }
  return anchors;
}

/** Why `target` (a path from the repository root, with an optional #anchor) is not there, or null. */
function problemWith(target: string): string | null {
  const [path, anchor] = target.split('#', 2) as [string, string | undefined];
  if (!existsSync(join(ROOT, path))) return GENERATED_LATER.has(path) ? null : `${path} does not exist`;
  if (anchor === undefined || anchor === '') return null;
  if (!path.endsWith('.md') || statSync(join(ROOT, path)).isDirectory()) return null;
  return anchorsOfFile(path).has(anchor) ? null : `${path} has no heading #${anchor}`;
}

interface Link {
  file: string;
  line: number;
  target: string;
}

/** Every relative link `[text](target)` of a document's prose, as a path from the repository root. */
function relativeLinks(file: string): Link[] {
  const links: Link[] = [];
  for (const { line, text } of proseLines(readFileSync(join(ROOT, file), 'utf8'))) {
    const prose = text.replace(/`[^`]*`/g, '');
    for (const match of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
      const raw = match[1];
      if (/^[a-z][a-z0-9+.-]*:/i.test(raw)) continue; // http:, https:, mailto:
      const [path, anchor] = raw.split('#', 2);
      const resolved = path === '' ? file : normalize(join(dirname(file), decodeURI(path))).split('\\').join('/');
      links.push({ file, line, target: anchor === undefined ? resolved : `${resolved}#${anchor}` });
    }
  }
  return links;
}

/** Every `docs/NAME.md` or `docs/NAME.md#anchor` cited in the tracked files, by file and line. */
function citations(): Link[] {
  const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
    .split('\0')
    .filter((f) => f !== '' && /\.(ts|tsx|js|mjs|cjs|md)$/.test(f) && f !== relative(ROOT, fileURLToPath(import.meta.url)));
  const found: Link[] = [];
  for (const file of tracked) {
    if (!existsSync(join(ROOT, file))) continue; // deleted in the work tree, not yet committed
    readFileSync(join(ROOT, file), 'utf8')
      .split('\n')
      .forEach((text, i) => {
        for (const match of text.matchAll(/(?<![\w./-])docs\/([A-Za-z0-9_-]+\.md)(#[A-Za-z0-9_-]+)?/g)) {
          found.push({ file, line: i + 1, target: `docs/${match[1]}${match[2] ?? ''}` });
        }
      });
  }
  return found;
}

describe('links of README.md, CONTRIBUTING.md and docs/*.md', () => {
  it('finds the documents, and links in them', () => {
    expect(DOCUMENTS).toContain('README.md');
    expect(DOCUMENTS.filter((f) => f.startsWith('docs/')).length).toBeGreaterThanOrEqual(10);
    expect(DOCUMENTS.flatMap(relativeLinks).length).toBeGreaterThanOrEqual(50);
  });

  for (const file of DOCUMENTS) {
    it(`${file}: every relative link names an existing file and heading`, () => {
      const stale = relativeLinks(file).flatMap((l) => {
        const problem = problemWith(l.target);
        return problem ? [`${l.file}:${l.line}: ${l.target}: ${problem}`] : [];
      });
      expect(stale).toEqual([]);
    });
  }

  it('README.md links every document of docs/', () => {
    const linked = new Set(relativeLinks('README.md').map((l) => l.target.split('#')[0]));
    expect(DOCUMENTS.filter((f) => f.startsWith('docs/') && !linked.has(f))).toEqual([]);
  });
});

describe('citations of docs/ in the tracked files', () => {
  const cited = citations();

  it('finds the citations of the code', () => {
    expect(cited.filter((c) => c.target.includes('#') && /\.(ts|tsx)$/.test(c.file)).length).toBeGreaterThanOrEqual(40);
  });

  it('every docs/NAME.md#anchor cited names an existing file and heading', () => {
    const stale = cited.flatMap((c) => {
      const problem = problemWith(c.target);
      return problem ? [`${c.file}:${c.line}: ${c.target}: ${problem}`] : [];
    });
    expect(stale).toEqual([]);
  });

  it('would catch a stale one: a heading that is not there, a file that is not there', () => {
    expect(problemWith('docs/api.md#errors')).toBeNull();
    expect(problemWith('docs/api.md#no-such-heading')).toMatch(/no heading/);
    expect(problemWith('docs/no-such-file.md')).toMatch(/does not exist/);
  });

  it('makes anchors as GitHub does', () => {
    expect(slug('State, over HTTP and in the UI')).toBe('state-over-http-and-in-the-ui');
    expect(slug('The /local extensions')).toBe('the-local-extensions');
    expect(slug('21 CFR Part 11 and EU GMP Annex 11')).toBe('21-cfr-part-11-and-eu-gmp-annex-11');
    expect([...anchorsOf('# A\n## sync\n```\n# not a heading\n```\n## Sync\n')]).toEqual(['a', 'sync', 'sync-1']);
  });
});
