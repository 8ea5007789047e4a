/**
 * The shell commands a reader copies out of README.md, CONTRIBUTING.md or docs/*.md: each command of a fenced code block as the
 * shell reads it (lines continued with `\` or inside open quotes belong to it), and the commands
 * quoted inline in the prose.
 */

export interface CodeBlock {
  /** The heading the block is under. */
  heading: string;
  /** 1-based line number of the block's first line of code. */
  line: number;
  lines: string[];
  /** The language after the opening fence (`sh`, `text`, `json` …), or '' when none is named. */
  lang: string;
}

/** The languages of blocks that hold shell commands; a block naming none is read as shell too. */
const SHELL_LANGUAGES = new Set(['', 'sh', 'bash', 'shell', 'console']);

export interface ShellCommand {
  /** 1-based line number in its Markdown file where the command starts. */
  line: number;
  /** The command as written, continuation lines included (what a reader pastes into a shell). */
  text: string;
  /** The same without shell comments, for reading its words. */
  code: string;
  /** The fenced block it comes from, or null for a command quoted inline in the prose. */
  block: CodeBlock | null;
}

export function codeBlocks(markdown: string): CodeBlock[] {
  const lines = markdown.split('\n');
  const blocks: CodeBlock[] = [];
  let heading = '';
  let open: CodeBlock | null = null;
  lines.forEach((line, i) => {
    if (open) {
      if (/^```\s*$/.test(line)) {
        blocks.push(open);
        open = null;
      } else open.lines.push(line);
    } else if (line.startsWith('```')) open = { heading, line: i + 2, lines: [], lang: line.slice(3).trim() };
    else if (/^#+ /.test(line)) heading = line.replace(/^#+ /, '');
  });
  return blocks;
}

/**
 * Where the shell command starting at `lines[start]` ends: after the first line that is neither
 * continued with a trailing backslash nor left inside an open quote. Returns the index after it
 * and the text with comments dropped.
 */
export function readCommand(lines: string[], start: number): { end: number; code: string } {
  let quote: "'" | '"' | null = null;
  const code: string[] = [];
  for (let i = start; i < lines.length; i++) {
    const line = lines[i];
    let kept = line;
    let continued = false;
    for (let j = 0; j < line.length; j++) {
      const c = line[j];
      if (quote === "'") {
        if (c === "'") quote = null;
      } else if (quote === '"') {
        if (c === '\\') j++;
        else if (c === '"') quote = null;
      } else if (c === "'" || c === '"') quote = c;
      else if (c === '\\') {
        if (j === line.length - 1) continued = true;
        j++;
      } else if (c === '#' && (j === 0 || /\s/.test(line[j - 1]))) {
        kept = line.slice(0, j);
        break;
      }
    }
    code.push(kept);
    if (quote === null && !continued) return { end: i + 1, code: code.join('\n') };
  }
  throw new Error(`the command at line ${start + 1} never ends (an open quote?)`);
}

/** Every command in a Markdown file whose first word is `program`, in the order of the file. */
export function commandsOf(markdown: string, program: string): ShellCommand[] {
  const starts = new RegExp(`^\\s*${program}\\s`);
  const commands: ShellCommand[] = [];
  for (const block of codeBlocks(markdown)) {
    if (!SHELL_LANGUAGES.has(block.lang)) continue; // printed output, JSON, a format: nothing to run
    let i = 0;
    while (i < block.lines.length) {
      if (!starts.test(block.lines[i])) {
        i = readCommand(block.lines, i).end;
        continue;
      }
      const { end, code } = readCommand(block.lines, i);
      commands.push({ line: block.line + i, text: block.lines.slice(i, end).join('\n'), code, block });
      i = end;
    }
  }
  const inline = new RegExp(`\`(${program} [^\`]+)\``, 'g');
  let fenced = false;
  markdown.split('\n').forEach((line, i) => {
    if (line.startsWith('```')) fenced = !fenced;
    else if (!fenced) for (const match of line.matchAll(inline)) commands.push({ line: i + 1, text: match[1], code: match[1], block: null });
  });
  // Inline commands sit in the prose between blocks: the file's order is the line order.
  return commands.sort((a, b) => a.line - b.line);
}

/** The hosts (with port) of the http(s) URLs a command names. */
export function urlHosts(code: string): string[] {
  return [...code.matchAll(/https?:\/\/([^/\s'"?#]+)/g)].map((m) => m[1]);
}
