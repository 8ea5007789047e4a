/**
 * Temperature (and humidity, on its own axis) over time, with the limits drawn as lines, the
 * excursions shaded, the trimmed range marked, and wheel/pinch zoom with drag to pan.
 * The x axis is a plain linear axis of epoch seconds with a local date/time tick formatter, so
 * no date adapter package is needed. Long runs are downsampled min/max-preserving first.
 */
import {
  Chart,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js';
import type { ChartConfiguration, ChartDataset } from 'chart.js';
import annotationPlugin from 'chartjs-plugin-annotation';
import type { AnnotationOptions } from 'chartjs-plugin-annotation';
import zoomPlugin from 'chartjs-plugin-zoom';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { LabelReport } from '../../schema/report';
import { downsampleMinMax } from '../lib/downsample';
import type { XY } from '../lib/downsample';
import { formatEpoch, formatEpochShort, formatHumidity, formatTemperature } from '../lib/format';
import { excursionRanges, hasHumidity, mergeRanges, trimRange } from '../lib/report-view';
import type { TimeRange } from '../lib/report-view';

Chart.register(LineController, LineElement, PointElement, LinearScale, Tooltip, Legend, annotationPlugin, zoomPlugin);

const MAX_SHADED_EXCURSIONS = 400;

const COLORS = {
  temperature: '#0047ab',
  humidity: '#00796b',
  minLimit: '#1565c0',
  maxLimit: '#c62828',
  excursion: 'rgba(198, 40, 40, 0.16)',
  outsideTrim: 'rgba(0, 0, 0, 0.10)',
  trimLine: '#4a148c',
  grid: 'rgba(0, 0, 0, 0.12)',
  text: '#1a1a1a',
};

interface ChartInput {
  temperature: XY[];
  humidity: XY[] | null;
  span: TimeRange | null;
  excursions: TimeRange[];
  trim: TimeRange | null;
  readings: number;
}

function prepare(report: LabelReport): ChartInput {
  const dps = report.calculatedSenseData.datapoints;
  const temperature = downsampleMinMax(dps.map((d) => ({ x: d.timestamp, y: d.temperature })));
  const humidity = hasHumidity(dps)
    ? downsampleMinMax(dps.filter((d) => d.humidity !== undefined).map((d) => ({ x: d.timestamp, y: d.humidity as number })))
    : null;
  const span = dps.length > 0 ? { start: dps[0].timestamp, end: dps[dps.length - 1].timestamp } : null;
  const excursions = mergeRanges(excursionRanges(dps, report.senseConfig.limits, report.senseConfig.interval), MAX_SHADED_EXCURSIONS);
  return { temperature, humidity, span, excursions, trim: trimRange(report), readings: dps.length };
}

/** Temperature limits are labelled at the left (their axis), humidity limits at the right (theirs). */
function limitLine(id: string, value: number, scaleID: 'y' | 'y1', color: string, text: string): [string, AnnotationOptions] {
  return [
    id,
    {
      type: 'line',
      scaleID,
      value,
      borderColor: color,
      borderWidth: 2,
      borderDash: scaleID === 'y' ? [8, 5] : [3, 3],
      label: {
        display: true,
        content: text,
        position: scaleID === 'y' ? 'start' : 'end',
        backgroundColor: color,
        color: '#fff',
        font: { size: 12, weight: 'bold' },
        padding: 3,
      },
    },
  ];
}

function annotations(report: LabelReport, input: ChartInput): Record<string, AnnotationOptions> {
  const limits = report.senseConfig.limits;
  const entries: [string, AnnotationOptions][] = [
    limitLine('minTemperature', limits.minTemperature, 'y', COLORS.minLimit, `Min ${formatTemperature(limits.minTemperature)}`),
    limitLine('maxTemperature', limits.maxTemperature, 'y', COLORS.maxLimit, `Max ${formatTemperature(limits.maxTemperature)}`),
  ];
  if (input.humidity) {
    if (limits.minHumidity !== undefined)
      entries.push(limitLine('minHumidity', limits.minHumidity, 'y1', COLORS.humidity, `Min ${formatHumidity(limits.minHumidity)}`));
    if (limits.maxHumidity !== undefined)
      entries.push(limitLine('maxHumidity', limits.maxHumidity, 'y1', COLORS.humidity, `Max ${formatHumidity(limits.maxHumidity)}`));
  }
  input.excursions.forEach((r, i) => {
    entries.push([
      `excursion${i}`,
      { type: 'box', xScaleID: 'x', xMin: r.start, xMax: r.end, backgroundColor: COLORS.excursion, borderWidth: 0, drawTime: 'beforeDatasetsDraw' },
    ]);
  });
  if (input.trim && input.span) {
    // The parts left out by the trim are greyed; the kept range is bounded by two labelled lines.
    if (input.trim.start > input.span.start)
      entries.push(['beforeTrim', { type: 'box', xMin: input.span.start, xMax: input.trim.start, backgroundColor: COLORS.outsideTrim, borderWidth: 0, drawTime: 'beforeDatasetsDraw' }]);
    if (input.trim.end < input.span.end)
      entries.push(['afterTrim', { type: 'box', xMin: input.trim.end, xMax: input.span.end, backgroundColor: COLORS.outsideTrim, borderWidth: 0, drawTime: 'beforeDatasetsDraw' }]);
    for (const [id, value, text] of [
      ['trimStart', input.trim.start, 'Trim start'],
      ['trimEnd', input.trim.end, 'Trim end'],
    ] as const) {
      entries.push([
        id,
        {
          type: 'line',
          scaleID: 'x',
          value,
          borderColor: COLORS.trimLine,
          borderWidth: 2,
          label: { display: true, content: text, position: 'end', backgroundColor: COLORS.trimLine, color: '#fff', font: { size: 11 }, padding: 3 },
        },
      ]);
    }
  }
  return Object.fromEntries(entries);
}

function buildConfig(report: LabelReport, input: ChartInput, view: TimeRange | null, onView: (r: TimeRange | null) => void): ChartConfiguration<'line', XY[]> {
  const limits = report.senseConfig.limits;
  const datasets: ChartDataset<'line', XY[]>[] = [
    {
      label: 'Temperature (°C)',
      data: input.temperature,
      yAxisID: 'y',
      borderColor: COLORS.temperature,
      backgroundColor: COLORS.temperature,
      borderWidth: 2,
      pointRadius: input.temperature.length > 200 ? 0 : 2,
      pointHoverRadius: 4,
    },
  ];
  if (input.humidity) {
    datasets.push({
      label: 'Humidity (%RH)',
      data: input.humidity,
      yAxisID: 'y1',
      borderColor: COLORS.humidity,
      backgroundColor: COLORS.humidity,
      borderWidth: 1.5,
      pointRadius: 0,
      pointHoverRadius: 4,
    });
  }
  const tellView = ({ chart }: { chart: Chart }) => {
    const x = chart.scales.x;
    onView(chart.isZoomedOrPanned() ? { start: x.min, end: x.max } : null);
  };
  const minRange = Math.max(report.senseConfig.interval * 4, 60);
  return {
    type: 'line',
    data: { datasets },
    options: {
      animation: false,
      parsing: false,
      normalized: true,
      responsive: true,
      maintainAspectRatio: false,
      interaction: { mode: 'nearest', axis: 'x', intersect: false },
      scales: {
        x: {
          type: 'linear',
          min: view?.start ?? input.span?.start,
          max: view?.end ?? input.span?.end,
          grid: { color: COLORS.grid },
          ticks: { color: COLORS.text, maxRotation: 0, autoSkipPadding: 24, callback: (v) => formatEpochShort(Number(v)) },
        },
        y: {
          type: 'linear',
          position: 'left',
          // Keep the limit lines in view even when every reading sits far inside them.
          suggestedMin: limits.minTemperature - 1,
          suggestedMax: limits.maxTemperature + 1,
          title: { display: true, text: '°C', color: COLORS.text },
          grid: { color: COLORS.grid },
          ticks: { color: COLORS.text },
        },
        y1: {
          type: 'linear',
          display: input.humidity !== null,
          position: 'right',
          suggestedMin: limits.minHumidity,
          suggestedMax: limits.maxHumidity,
          title: { display: true, text: '%RH', color: COLORS.text },
          grid: { drawOnChartArea: false },
          ticks: { color: COLORS.text },
        },
      },
      plugins: {
        legend: { labels: { color: COLORS.text, boxWidth: 18 } },
        tooltip: {
          callbacks: {
            title: (items) => (items.length > 0 ? formatEpoch(items[0].parsed.x ?? 0, true) : ''),
            label: (item) =>
              item.dataset.yAxisID === 'y1' ? `Humidity ${formatHumidity(item.parsed.y)}` : `Temperature ${formatTemperature(item.parsed.y)}`,
          },
        },
        annotation: { annotations: annotations(report, input) },
        zoom: {
          zoom: { wheel: { enabled: true }, pinch: { enabled: true }, mode: 'x', onZoomComplete: tellView },
          pan: { enabled: true, mode: 'x', onPanComplete: tellView },
          limits: { x: { min: 'original', max: 'original', minRange } },
        },
      },
    },
  };
}

export function ReportChart({ report, onViewRange }: { report: LabelReport; onViewRange?: (range: TimeRange | null) => void }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const chartRef = useRef<Chart<'line', XY[]> | null>(null);
  // The zoomed window survives an edit of the same report (new limits redraw, the view stays).
  const viewRef = useRef<{ id: string; range: TimeRange | null }>({ id: report.id, range: null });
  const [zoomed, setZoomed] = useState(false);
  const input = useMemo(() => prepare(report), [report]);
  const onViewRangeRef = useRef(onViewRange);
  onViewRangeRef.current = onViewRange;

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas || input.readings === 0) return;
    if (viewRef.current.id !== report.id) viewRef.current = { id: report.id, range: null };
    const onView = (range: TimeRange | null) => {
      viewRef.current.range = range;
      setZoomed(range !== null);
      onViewRangeRef.current?.(range);
    };
    const chart = new Chart(canvas, buildConfig(report, input, viewRef.current.range, onView));
    chartRef.current = chart;
    setZoomed(viewRef.current.range !== null);
    return () => {
      chart.destroy();
      chartRef.current = null;
    };
  }, [report, input]);

  if (input.readings === 0) {
    return <div className="chart chart--empty">No readings yet: the label has not been tapped or read out.</div>;
  }

  return (
    <div className="chart">
      <div className="chart__toolbar">
        <span className="muted small">
          {input.readings.toLocaleString()} readings
          {input.temperature.length < input.readings ? ` (drawn as ${input.temperature.length.toLocaleString()} points, peaks kept)` : ''} · wheel or pinch
          to zoom, drag to pan
        </span>
        <button
          type="button"
          className="button button--small"
          disabled={!zoomed}
          onClick={() => {
            chartRef.current?.resetZoom();
            viewRef.current.range = null;
            setZoomed(false);
            onViewRangeRef.current?.(null);
          }}
        >
          Reset zoom
        </button>
      </div>
      <div className="chart__canvas">
        <canvas ref={canvasRef} role="img" aria-label="Temperature over time with limits, excursions and trim range" data-testid="report-chart" />
      </div>
      <ul className="chart__legend-extra" aria-label="Chart key">
        <li>
          <span className="swatch swatch--excursion" aria-hidden="true" /> Out of range
        </li>
        {input.trim && (
          <li>
            <span className="swatch swatch--outside-trim" aria-hidden="true" /> Left out by trim
          </li>
        )}
      </ul>
    </div>
  );
}
