/**
 * Benchmark of `labeldesk report --pdf`: the PDF of a report with 10 000 datapoints (humidity
 * too, a trim and spikes beyond both limits), rendered from the print view by Chromium. Printed:
 * the render alone with Chromium already running (open the print view, wait until it is ready,
 * print A4), and the whole command as a person runs it (service start, Chromium start, render,
 * write). Target: the render within 2 s.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { DEFAULT_CHROMIUM, launchChromium, reportCommand, reportPdf } from '../cli/report';
import { demoReport, referenceTime } from '../demo';
import type { BundleReport } from '../schema/bundle';
import { openService } from '../host/open-service';
import { baseline } from './baseline';
import { median, percentile } from './stats';

const DATAPOINTS = Number(process.env.BENCH_PDF_DATAPOINTS ?? 10_000);
const RUNS = Number(process.env.BENCH_PDF_RUNS ?? 8);
const REPO = fileURLToPath(new URL('../', import.meta.url));

/** A demo report made long: readings every 5 minutes for ~35 days, a daily swing, a spike now and then. */
function longReport(): BundleReport {
  const base = demoReport('bench-pdf', 3, referenceTime('bench-pdf'));
  const interval = 300;
  const start = base.senseConfig.configTime + base.senseConfig.startDelay;
  const datapoints = Array.from({ length: DATAPOINTS }, (_, k) => {
    const spike = k % 997 === 500 ? 6 : k % 1499 === 700 ? -7 : 0;
    return {
      timestamp: start + k * interval,
      temperature: Math.round((5 + 2 * Math.sin((k / 288) * 2 * Math.PI) + spike) * 10) / 10,
      humidity: Math.round((50 + 8 * Math.sin((k / 500) * 2 * Math.PI)) * 10) / 10,
    };
  });
  return {
    ...base,
    id: 'bench-pdf-10000',
    labelReference: 'BENCH-PDF-10000',
    numberOfTaps: Math.max(1, base.numberOfTaps),
    senseConfig: { ...base.senseConfig, interval, limits: { minTemperature: 2, maxTemperature: 8, minHumidity: 40, maxHumidity: 60 } },
    reportedSenseData: { datapoints, currentTime: start + DATAPOINTS * interval, numberOfDatapointsAvailable: DATAPOINTS, numberOfMeasurementsOccurred: DATAPOINTS },
    trim: { startTime: start + 100 * interval, endTime: start + (DATAPOINTS - 100) * interval },
  };
}

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'labeldesk-bench-pdf-'));
  try {
    const uiDir = join(dir, 'ui');
    await build({ configFile: join(REPO, 'renderer/vite.config.ts'), logLevel: 'error', build: { outDir: uiDir, emptyOutDir: true } });
    const dbFile = join(dir, 'bench.sqlite');
    const report = longReport();
    const setup = openService(dbFile);
    setup.createDemoData({ reports: 1, seed: 1 });
    setup.putReport(report, { kind: 'import' });
    setup.close();

    const chromium = process.env.CHROMIUM_PATH || DEFAULT_CHROMIUM;
    const service = openService(dbFile);
    const browser = await launchChromium(chromium);
    const samples: number[] = [];
    let bytes = 0;
    try {
      for (let i = 0; i < RUNS + 1; i++) {
        const t0 = performance.now();
        const pdf = await reportPdf({ service, uiDir, chromium, reportId: report.id, companyId: report.companyId, browser });
        // The first render warms Chromium's caches; it is not counted.
        if (i > 0) samples.push(performance.now() - t0);
        bytes = pdf.length;
      }
    } finally {
      await browser.close();
      service.close();
    }
    const view = `pdf: print view of a report with ${DATAPOINTS.toLocaleString('en')} datapoints → A4 PDF, Chromium running`;
    const size = `${Math.round(bytes / 1024)} KiB`;
    baseline.report({ name: `${view}, median`, value: median(samples), unit: 'ms', better: 'lower', target: 2000, detail: size });
    baseline.report({ name: `${view}, p95`, value: percentile(samples, 95), unit: 'ms', better: 'lower' });

    const out = join(dir, 'out.pdf');
    const quiet = { write: () => true } as unknown as NodeJS.WritableStream;
    const t0 = performance.now();
    await reportCommand.run(['--db', dbFile, '--id', report.id, '--pdf', out, '--ui', uiDir], { out: quiet, err: process.stderr });
    baseline.report({ name: `pdf: the whole command (service start, Chromium start, render, write), ${DATAPOINTS.toLocaleString('en')} datapoints`, value: performance.now() - t0, unit: 'ms', better: 'lower' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
