/**
 * The text of a PDF, line by line as printed, read with pdfjs-dist's Node build: no system tool
 * (poppler's pdftotext is not on a fresh machine), no worker thread, no network, no canvas.
 */
import { readFileSync } from 'node:fs';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

interface Run {
  text: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface PdfText {
  pages: number;
  /** Every page's lines, top to bottom, each with runs of whitespace made one space. */
  lines: string[];
}

/**
 * Runs whose baselines are closer than this share a line. Chromium sets the cells of one table
 * row on one baseline, give or take rounding; the lines of text it prints are points apart.
 */
const SAME_LINE = 2;

export async function pdfText(file: string): Promise<PdfText> {
  const document = await getDocument({
    data: new Uint8Array(readFileSync(file)),
    // Text needs neither: fonts stay unloaded, and no code is compiled from the file.
    disableFontFace: true,
    isEvalSupported: false,
    useSystemFonts: false,
    // Errors only: a missing standard font's glyph data (not needed for text) is not news.
    verbosity: 0,
  }).promise;
  try {
    const lines: string[] = [];
    for (let n = 1; n <= document.numPages; n++) {
      const page = await document.getPage(n);
      const content = await page.getTextContent();
      const runs: Run[] = [];
      for (const item of content.items) {
        if (!('str' in item) || item.str === '') continue;
        runs.push({ text: item.str, x: item.transform[4], y: item.transform[5], width: item.width, height: Math.abs(item.transform[3]) || item.height });
      }
      lines.push(...toLines(runs));
      page.cleanup();
    }
    return { pages: document.numPages, lines };
  } finally {
    await document.destroy();
  }
}

/** Runs grouped by baseline (PDF y grows upwards), left to right within a line. */
export function toLines(runs: Run[]): string[] {
  const sorted = [...runs].sort((a, b) => b.y - a.y || a.x - b.x);
  const groups: Run[][] = [];
  for (const run of sorted) {
    const last = groups.at(-1);
    if (last && Math.abs(last[0].y - run.y) < SAME_LINE) last.push(run);
    else groups.push([run]);
  }
  return groups.map((group) => {
    group.sort((a, b) => a.x - b.x);
    let line = '';
    let end = -Infinity;
    for (const run of group) {
      // A gap wider than a fraction of the font size is a space the layout made, not a glyph.
      if (line !== '' && run.x - end > run.height * 0.15) line += ' ';
      line += run.text;
      end = run.x + run.width;
    }
    return line.replace(/\s+/g, ' ').trim();
  });
}
