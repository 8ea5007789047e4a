/**
 * Where a process spent its time, from a V8 CPU profile (`node --cpu-prof`, or the inspector's
 * Profiler): self time grouped by the part of the code it ran in (our folders, the packages,
 * Node's internals, garbage collection, idle), and the functions with the most self time.
 */
import { readFileSync } from 'node:fs';
import type { Profiler } from 'node:inspector';

type CallFrame = Profiler.ProfileNode['callFrame'];

interface Share {
  name: string;
  ms: number;
}

export interface ProfileSummary {
  totalMs: number;
  areas: Share[];
  functions: Share[];
}

const OUR_FOLDERS = ['sync', 'service', 'db', 'sense', 'http', 'query', 'schema', 'host', 'cli', 'webhooks', 'contract', 'bench', 'demo'];

/** The part of the code a frame belongs to. */
function areaOf(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (url === '') {
    if (functionName === '(garbage collector)') return 'garbage collection';
    if (functionName === '(idle)') return 'idle (waiting for I/O)';
    if (functionName === '(program)') return 'V8 and native code';
    return `native: ${functionName || '(anonymous)'}`;
  }
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return `package ${pkg[1]}`;
  if (url.startsWith('node:')) return `node ${url.slice(5).split('/')[0]}`;
  for (const folder of OUR_FOLDERS) if (url.includes(`/${folder}/`)) return `${folder}/`;
  return url;
}

function shortUrl(url: string): string {
  const pkg = /node_modules\/(.*)$/.exec(url);
  if (pkg) return pkg[1];
  for (const folder of OUR_FOLDERS) {
    const at = url.lastIndexOf(`/${folder}/`);
    if (at >= 0) return url.slice(at + 1);
  }
  return url;
}

export function summarize(profile: Profiler.Profile, top = 20): ProfileSummary {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfMs = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) selfMs.set(samples[i], (selfMs.get(samples[i]) ?? 0) + (deltas[i + 1] ?? 0) / 1000);
  const areas = new Map<string, number>();
  const functions = new Map<string, number>();
  let totalMs = 0;
  for (const [id, ms] of selfMs) {
    const frame = nodes.get(id)!.callFrame;
    totalMs += ms;
    const area = areaOf(frame);
    areas.set(area, (areas.get(area) ?? 0) + ms);
    const name = `${frame.functionName || '(anonymous)'} ${frame.url ? `${shortUrl(frame.url)}:${frame.lineNumber + 1}` : ''}`.trim();
    functions.set(name, (functions.get(name) ?? 0) + ms);
  }
  const sorted = (m: Map<string, number>) => [...m].map(([name, ms]) => ({ name, ms })).sort((a, b) => b.ms - a.ms);
  return { totalMs, areas: sorted(areas), functions: sorted(functions).slice(0, top) };
}

export function summarizeFile(file: string, top?: number): ProfileSummary {
  return summarize(JSON.parse(readFileSync(file, 'utf8')) as Profiler.Profile, top);
}

export function printSummary(title: string, summary: ProfileSummary): void {
  const pct = (ms: number) => `${((100 * ms) / summary.totalMs).toFixed(1).padStart(5)} %`;
  console.log(`${title}: ${(summary.totalMs / 1000).toFixed(1)} s sampled`);
  for (const a of summary.areas.filter((x) => x.ms / summary.totalMs >= 0.005)) console.log(`  ${pct(a.ms)}  ${a.name}`);
  console.log('  functions with the most self time:');
  for (const f of summary.functions) console.log(`  ${pct(f.ms)}  ${f.name}`);
}
