/**
 * `labeldesk insights --db FILE [--filter …] [--custom-fields …] --by KEY (--pdf OUT.pdf | --csv DIR)`:
 * the Insights screen's figures handed on. The figures are the service's own (the same rules as
 * /local/insights, as one company sees its reports); the PDF is an A4 page of bar charts (colour
 * and the figure in words) and the tables, printed by Chromium as `labeldesk report` prints; the
 * CSV is one file per table.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  ALERT_WORDS,
  DECISION_WORDS,
  binCounts,
  DISTRIBUTIONS,
  distributionRows,
  groupsTable,
  percent,
  tableCsv,
  totalsOf,
  worstTen,
  type GroupRow,
  type Table,
} from '../contract/insights-tables';
import type { Service } from '../host/open-service';
import { parseListQuery } from '../query/list-query';
import type { Caller } from '../service/api-keys';
import { parseReviewConditions } from '../service/review-list';
import { CliError, databaseFile, EXIT_OK, integerOption, openCliService, parseCommandArgs, UsageError, write, type Command, type Io } from './args';
import { chromiumPath, launchChromium } from './report';

const USAGE =
  'labeldesk insights [--db FILE] [--company ID] [--filter F] [--custom-fields C] [--review R] [--by KEY] [--period week|month] [--zone ZONE] [--min-reports N] (--pdf OUT.pdf | --csv DIR)';

export const insightsCommand: Command = {
  name: 'insights',
  summary: 'write the Insights figures of a filter as an A4 PDF or as CSV tables',
  usage: USAGE,
  help: `usage: ${USAGE}

For the reports the filter matches (the list's filter and customFields, as GET /v2/labelReports
takes them), as one company sees them: reports and the share with an excursion per week or month,
the same by KEY, the ten worst values of KEY by excursion rate, time out of range, degree-hours
and MKT as distributions, alert levels and decisions.

options:
  --db FILE            the database (default: the per-user data folder)
  --company ID         whose view (default: the company owning the most reports)
  --filter F           e.g. 'status[eq]completed,created[gte]2026-01-01'
  --custom-fields C    e.g. 'carrier[eq]DHL'
  --review R           where the company's review stands, as GET /local/labelReports takes it:
                       awaitingReview, awaitingAcknowledgement, decision.released|rejected|onHold|none
  --by KEY             mode (default), type, company.id, status, alert.level or customFields.<id>
  --period P           week or month (default)
  --zone ZONE          IANA zone of the weeks and months (default UTC)
  --min-reports N      the worst ten count only values with at least N reports (default 5)
  --pdf FILE           write the A4 PDF here (needs Chromium: /usr/bin/chromium or CHROMIUM_PATH)
  --csv DIR            write one CSV per table into this folder

examples:
  labeldesk insights --db labeldesk.db --filter 'created[gte]2026-01-01' --by mode --pdf insights.pdf
  labeldesk insights --db labeldesk.db --by customFields.carrier --period week --zone Europe/Berlin --csv insights/
`,
  async run(argv: string[], io: Io): Promise<number> {
    const { values } = parseCommandArgs(
      argv,
      {
        db: { type: 'string' },
        company: { type: 'string' },
        filter: { type: 'string' },
        'custom-fields': { type: 'string' },
        review: { type: 'string' },
        by: { type: 'string' },
        period: { type: 'string' },
        zone: { type: 'string' },
        'min-reports': { type: 'string' },
        pdf: { type: 'string' },
        csv: { type: 'string' },
      },
      false,
    );
    if ((values.pdf === undefined) === (values.csv === undefined)) throw new UsageError('give one of --pdf FILE or --csv DIR');
    const period = values.period ?? 'month';
    if (period !== 'week' && period !== 'month') throw new UsageError(`--period is week or month, not '${period}'`);
    const minReports = values['min-reports'] === undefined ? 5 : integerOption('--min-reports', values['min-reports'], 1);
    const out = path.resolve((values.pdf ?? values.csv) as string);
    if (values.pdf !== undefined && !existsSync(path.dirname(out))) throw new CliError(`cannot write ${out}: the folder ${path.dirname(out)} does not exist`);
    const chromium = values.pdf !== undefined ? chromiumPath() : '';

    const service = openCliService(databaseFile(values.db), 'existing');
    let report: Report;
    try {
      const companyId = values.company ?? service.homeCompany();
      if (!companyId) throw new CliError('the database holds no company');
      if (!service.companies.find(companyId)) throw new CliError(`there is no company '${companyId}'`);
      report = insightsReport(service, { companyId, filter: values.filter, customFields: values['custom-fields'], review: values.review, by: values.by ?? 'mode', period, zone: values.zone ?? 'UTC', minReports });
    } finally {
      service.close();
    }
    if (values.pdf !== undefined) {
      await writeFile(out, await pdfOf(report, chromium));
      write(io.out, `wrote ${out}`);
    } else {
      mkdirSync(out, { recursive: true });
      for (const table of report.tables) {
        const file = path.join(out, `${table.title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')}.csv`);
        await writeFile(file, tableCsv(table));
        write(io.out, `wrote ${file}`);
      }
    }
    return EXIT_OK;
  },
};

interface Options {
  companyId: string;
  filter?: string;
  customFields?: string;
  review?: string;
  by: string;
  period: 'week' | 'month';
  zone: string;
  minReports: number;
}

interface Chart {
  title: string;
  bars: { label: string; value: number; share?: number | null }[];
  colour: string;
}

export interface Report {
  heading: string;
  total: number;
  charts: Chart[];
  tables: Table[];
}

/** Every figure of the Insights screen for this filter, as charts and tables. */
export function insightsReport(service: Service, o: Options): Report {
  const caller: Caller = { keyId: 'session', companyId: o.companyId, permissions: new Set(['labelReports:read']) };
  const query = parseListQuery({ filter: o.filter, customFields: o.customFields });
  const review = parseReviewConditions(o.review);
  const time = service.insights.groups(caller, query, `created.${o.period}`, o.zone, review);
  const split = service.insights.groups(caller, query, o.by, o.zone, review);
  const name = (g: GroupRow) => (g.label ?? (g.value === null ? '(not set)' : String(g.value)));
  const bins = binCounts(DISTRIBUTIONS.map((d) => service.insights.groups(caller, query, d.by, o.zone, review)));
  const totals = totalsOf(time.groups);
  const worst = worstTen(split.groups, o.minReports);
  const shareBars = (groups: readonly GroupRow[], label: (g: GroupRow) => string) =>
    groups.map((g) => ({ label: label(g), value: g.count, share: percent(g.reportsWithExcursions, g.count) }));
  return {
    heading: `${time.total.toLocaleString('en-US')} reports of ${o.companyId}${o.filter ? `, filter ${o.filter}` : ''}${o.customFields ? `, custom fields ${o.customFields}` : ''}${o.review ? `, review ${o.review}` : ''}; weeks (from Monday) and months in ${time.zone}`,
    total: time.total,
    charts: [
      { title: `Reports per ${o.period}, and the share with an excursion`, bars: shareBars(time.groups, (g) => String(g.value)), colour: '#3b6ea5' },
      { title: `Reports by ${o.by}, and the share with an excursion`, bars: shareBars(split.groups, name), colour: '#3b6ea5' },
      ...DISTRIBUTIONS.map((d, i) => ({ title: d.title, bars: d.bins.map((b, j) => ({ label: b.label, value: bins[i][j] })), colour: '#5b8c5a' })),
      { title: 'Alert levels', bars: Object.keys(ALERT_WORDS).map((k) => ({ label: ALERT_WORDS[k], value: totals.alertLevels[k] })), colour: '#e6a23c' },
      { title: 'Decisions', bars: Object.keys(DECISION_WORDS).map((k) => ({ label: DECISION_WORDS[k], value: totals.decisions[k] })), colour: '#9e9e9e' },
    ],
    tables: [
      groupsTable(`Per ${o.period}`, o.period === 'week' ? 'week from' : 'month', time.groups, (g) => String(g.value)),
      groupsTable(`By ${o.by}`, o.by, split.groups, name),
      groupsTable(`Ten worst by excursion rate, at least ${o.minReports} reports`, o.by, worst, name),
      { title: 'Distributions', columns: ['figure', 'range', 'reports'], rows: distributionRows(bins) },
      { title: 'Alert levels', columns: ['alert level', 'reports'], rows: Object.keys(ALERT_WORDS).map((k) => [ALERT_WORDS[k], totals.alertLevels[k]]) },
      { title: 'Decisions', columns: ['decision', 'reports'], rows: Object.keys(DECISION_WORDS).map((k) => [DECISION_WORDS[k], totals.decisions[k]]) },
    ],
  };
}

const escape = (text: string) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** A horizontal bar chart in SVG: each bar with its label and figure in words beside its colour. */
function chartSvg(chart: Chart): string {
  const max = Math.max(1, ...chart.bars.map((b) => b.value));
  const row = 16;
  const bars = chart.bars
    .map((b, i) => {
      const width = Math.round((b.value / max) * 300);
      const words = `${b.value.toLocaleString('en-US')}${b.share !== undefined && b.share !== null ? ` · ${b.share} % with an excursion` : ''}`;
      return `<text x="0" y="${i * row + 12}" font-size="10">${escape(b.label)}</text>
<rect x="150" y="${i * row + 3}" width="${width}" height="11" fill="${chart.colour}"/>
<text x="${156 + width}" y="${i * row + 12}" font-size="10">${escape(words)}</text>`;
    })
    .join('\n');
  return `<figure><figcaption>${escape(chart.title)}</figcaption><svg width="680" height="${chart.bars.length * row + 4}" xmlns="http://www.w3.org/2000/svg">${bars}</svg></figure>`;
}

function tableHtml(table: Table): string {
  const head = table.columns.map((c) => `<th>${escape(c)}</th>`).join('');
  const rows = table.rows.map((r) => `<tr>${r.map((c) => `<td>${c === null ? '—' : escape(String(c))}</td>`).join('')}</tr>`).join('');
  return `<h2>${escape(table.title)}</h2><table><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>`;
}

export function insightsHtml(report: Report): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>LabelDesk insights</title><style>
@page { size: A4; margin: 12mm; }
body { font-family: sans-serif; font-size: 11px; color: #111; }
h1 { font-size: 16px; } h2 { font-size: 12px; margin: 12px 0 4px; }
figure { margin: 0 0 10px; break-inside: avoid; } figcaption { font-weight: bold; margin-bottom: 2px; }
table { border-collapse: collapse; font-size: 8px; break-inside: auto; } th, td { border: 1px solid #999; padding: 1px 3px; text-align: right; }
th:first-child, td:first-child { text-align: left; }
</style></head><body><h1>LabelDesk insights</h1><p>${escape(report.heading)}</p>
${report.charts.map(chartSvg).join('\n')}
${report.tables.map(tableHtml).join('\n')}
</body></html>`;
}

async function pdfOf(report: Report, chromium: string): Promise<Buffer> {
  const browser = await launchChromium(chromium);
  try {
    const page = await browser.newPage();
    // The page is self-contained: nothing to fetch, so nothing is waited for but the layout.
    await page.setContent(insightsHtml(report), { waitUntil: 'load' });
    return await page.pdf({ format: 'A4', printBackground: true, preferCSSPageSize: true });
  } finally {
    await browser.close();
  }
}
