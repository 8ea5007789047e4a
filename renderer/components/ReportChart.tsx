/**
 * Temperature (and humidity, on its own right-hand axis, dashed and in its own colour) over
 * time, with the limits, the excursions, the trimmed range and wheel/pinch zoom with drag to pan.
 * The overlay (limit and trim lines, excursion spans, their labels) is drawn by one plugin so
 * that its labels can be placed around each other (lib/label-placement.ts) and every excursion
 * keeps a visible width at any zoom (lib/excursion-marks.ts). Ticks are even on every axis, and
 * the time axis names its zone. The drawn points are the visible window, downsampled with its
 * peaks kept, so zooming in shows more detail and a spike never disappears.
 */
import { Chart, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip } from 'chart.js';
import type { ChartConfiguration, ChartDataset, Plugin, Scale } from 'chart.js';
import zoomPlugin from 'chartjs-plugin-zoom';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import type { LabelReport } from '../../schema/report';
import type { Limits } from '../../schema/sense';
import { niceScale, timeStep, timeTicks } from '../lib/chart-ticks';
import { downsampleWindow } from '../lib/downsample';
import type { XY } from '../lib/downsample';
import { visibleSpans } from '../lib/excursion-marks';
import { formatHumidity, formatTemperature } from '../lib/format';
import { placeLabels } from '../lib/label-placement';
import type { LabelRequest } from '../lib/label-placement';
import { excursionRanges, hasHumidity, mergeRanges, trimRange } from '../lib/report-view';
import type { TimeRange } from '../lib/report-view';
import { formatClock, formatDay, formatTime, zoneLabel } from '../lib/time-zone';
import type { TimeZoneSetting } from '../lib/time-zone';
import { timeZoneStore, useTimeZone } from '../state/time-zone';
import './report-panel.css';

Chart.register(LineController, LineElement, PointElement, LinearScale, Tooltip, Legend, zoomPlugin);

/** More spans than this are merged with their nearest neighbours: at full view they touch anyway. */
const MAX_EXCURSION_SPANS = 2000;

export const CHART_COLORS = {
  temperature: '#0047ab',
  humidity: '#00796b',
  minTemperature: '#1565c0',
  maxTemperature: '#c62828',
  humidityLimit: '#00796b',
  excursion: 'rgba(198, 40, 40, 0.18)',
  excursionMark: '#c62828',
  outsideTrim: 'rgba(0, 0, 0, 0.10)',
  trimLine: '#4a148c',
  grid: 'rgba(0, 0, 0, 0.12)',
  text: '#1a1a1a',
};

/** Room under the time axis for two lines of HTML labels (a time, and the day where it changes). */
const TICK_ROOM = 32;

/** CSS pixels of the chart on A4 (186 mm of text width, less the chart's border and padding). */
const PRINT_SIZE = { width: 680, height: 300 };

/** Temperature lines are solid and long-dashed; humidity lines dotted, so they differ without colour too. */
const DASH = { temperatureLimit: [10, 4], humidity: [6, 3], humidityLimit: [2, 3] };

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
  const temperature = dps.map((d) => ({ x: d.timestamp, y: d.temperature }));
  const humidity = hasHumidity(dps) ? dps.filter((d) => d.humidity !== undefined).map((d) => ({ x: d.timestamp, y: d.humidity as number })) : null;
  const span = dps.length > 0 ? { start: dps[0].timestamp, end: dps[dps.length - 1].timestamp } : null;
  const excursions = mergeRanges(excursionRanges(dps, report.senseConfig.limits, report.senseConfig.interval), MAX_EXCURSION_SPANS);
  return { temperature, humidity, span, excursions, trim: trimRange(report), readings: dps.length };
}

function extent(points: readonly XY[]): { min: number; max: number } {
  let min = Infinity;
  let max = -Infinity;
  for (const p of points) {
    if (p.y < min) min = p.y;
    if (p.y > max) max = p.y;
  }
  return { min, max };
}

interface LimitLine {
  id: string;
  value: number;
  axis: 'y' | 'y1';
  color: string;
  text: string;
}

function limitLines(limits: Limits, withHumidity: boolean): LimitLine[] {
  const lines: LimitLine[] = [
    { id: 'maxTemperature', value: limits.maxTemperature, axis: 'y', color: CHART_COLORS.maxTemperature, text: `Max ${formatTemperature(limits.maxTemperature)}` },
    { id: 'minTemperature', value: limits.minTemperature, axis: 'y', color: CHART_COLORS.minTemperature, text: `Min ${formatTemperature(limits.minTemperature)}` },
  ];
  if (withHumidity && limits.maxHumidity !== undefined)
    lines.push({ id: 'maxHumidity', value: limits.maxHumidity, axis: 'y1', color: CHART_COLORS.humidityLimit, text: `Max ${formatHumidity(limits.maxHumidity)}` });
  if (withHumidity && limits.minHumidity !== undefined)
    lines.push({ id: 'minHumidity', value: limits.minHumidity, axis: 'y1', color: CHART_COLORS.humidityLimit, text: `Min ${formatHumidity(limits.minHumidity)}` });
  return lines;
}

const LABEL_FONT = 'bold 12px system-ui, sans-serif';
const LABEL_PAD = 3;
const LABEL_HEIGHT = 18;

/**
 * Limit and trim lines, excursion spans with a mark along the bottom, greyed parts left out by
 * the trim, and the lines' labels placed so that none covers another.
 */
function overlayPlugin(input: ChartInput, lines: LimitLine[], onDrawn: (() => void) | undefined): Plugin<'line'> {
  let told = false;
  return {
    id: 'reportOverlay',
    beforeDatasetsDraw(chart) {
      const { ctx, chartArea: area } = chart;
      const x = chart.scales.x;
      ctx.save();
      ctx.beginPath();
      ctx.rect(area.left, area.top, area.right - area.left, area.bottom - area.top);
      ctx.clip();
      if (input.trim && input.span) {
        ctx.fillStyle = CHART_COLORS.outsideTrim;
        const before = [x.getPixelForValue(input.span.start), x.getPixelForValue(input.trim.start)];
        const after = [x.getPixelForValue(input.trim.end), x.getPixelForValue(input.span.end)];
        for (const [l, r] of [before, after]) if (r > l) ctx.fillRect(l, area.top, r - l, area.bottom - area.top);
      }
      const spans = visibleSpans(input.excursions, (v) => x.getPixelForValue(v), area.left, area.right);
      ctx.fillStyle = CHART_COLORS.excursion;
      for (const s of spans) ctx.fillRect(s.left, area.top, s.right - s.left, area.bottom - area.top);
      ctx.fillStyle = CHART_COLORS.excursionMark;
      for (const s of spans) ctx.fillRect(s.left, area.bottom - 5, s.right - s.left, 5);
      ctx.restore();
    },
    afterDatasetsDraw(chart) {
      const { ctx, chartArea: area } = chart;
      const x = chart.scales.x;
      ctx.save();
      ctx.beginPath();
      ctx.rect(area.left, area.top, area.right - area.left, area.bottom - area.top);
      ctx.clip();
      ctx.lineWidth = 2;
      const labels: (LabelRequest & { color: string; text: string })[] = [];
      ctx.font = LABEL_FONT;
      const width = (text: string) => ctx.measureText(text).width + 2 * LABEL_PAD;
      for (const line of lines) {
        const scale = chart.scales[line.axis] as Scale | undefined;
        if (!scale) continue;
        const py = scale.getPixelForValue(line.value);
        ctx.strokeStyle = line.color;
        ctx.setLineDash(line.axis === 'y' ? DASH.temperatureLimit : DASH.humidityLimit);
        ctx.beginPath();
        ctx.moveTo(area.left, py);
        ctx.lineTo(area.right, py);
        ctx.stroke();
        const w = width(line.text);
        // Temperature labels by their axis on the left, humidity labels by theirs on the right.
        labels.push({ id: line.id, x: line.axis === 'y' ? area.left + 4 : area.right - w - 4, y: py - LABEL_HEIGHT - 1, width: w, height: LABEL_HEIGHT, color: line.color, text: line.text });
      }
      if (input.trim) {
        ctx.setLineDash([]);
        ctx.strokeStyle = CHART_COLORS.trimLine;
        for (const [id, value, text] of [
          ['trimStart', input.trim.start, 'Trim start'],
          ['trimEnd', input.trim.end, 'Trim end'],
        ] as const) {
          const px = x.getPixelForValue(value);
          ctx.beginPath();
          ctx.moveTo(px, area.top);
          ctx.lineTo(px, area.bottom);
          ctx.stroke();
          const w = width(text);
          // Each label on the kept side of its line.
          labels.push({ id, x: id === 'trimStart' ? px + 3 : px - w - 3, y: area.top + 4, width: w, height: LABEL_HEIGHT, color: CHART_COLORS.trimLine, text });
        }
      }
      const placed = placeLabels(labels, { left: area.left, top: area.top, right: area.right, bottom: area.bottom - 6 });
      ctx.setLineDash([]);
      ctx.textBaseline = 'middle';
      placed.forEach((p, i) => {
        const label = labels[i];
        ctx.fillStyle = label.color;
        ctx.fillRect(p.x, p.y, p.width, p.height);
        ctx.fillStyle = '#fff';
        ctx.fillText(label.text, p.x + LABEL_PAD, p.y + p.height / 2 + 1);
      });
      ctx.restore();
    },
    afterRender() {
      if (told) return;
      told = true;
      onDrawn?.();
    },
  };
}

interface BuildOptions {
  report: LabelReport;
  input: ChartInput;
  view: TimeRange | null;
  zone: TimeZoneSetting;
  print: boolean;
  onView(range: TimeRange | null): void;
  onDrawn?: () => void;
  /** Where the time axis's labels go (see placeTicks). */
  ticksBox(): HTMLElement | null;
}

/**
 * The time axis is labelled in HTML over the canvas rather than on it: its text then prints as
 * text (a PDF can be searched, and checked for the last tick), and where the canvas is scaled
 * for paper the labels, placed as fractions of its box, move with it. They are written straight
 * into the DOM on every draw, not through React state: a chart redrawn for the printed page
 * must not print the labels of the screen.
 */
function placeTicks(chart: Chart, box: HTMLElement | null): void {
  const x = chart.scales.x;
  if (!box || !x || chart.width === 0 || chart.height === 0) return;
  const options = x.options as { grid?: { tickLength?: number }; ticks?: { padding?: number } };
  const top = ((x.top + (options.grid?.tickLength ?? 8) + (options.ticks?.padding ?? 3)) / chart.height) * 100;
  // The box has the canvas's own size, so a canvas that overflows its place (and is cut) takes
  // its labels with it; print.css scales both to the paper together.
  box.style.width = `${chart.width}px`;
  box.style.height = `${chart.height}px`;
  box.style.aspectRatio = `${chart.width} / ${chart.height}`;
  const doc = box.ownerDocument;
  box.replaceChildren(
    ...x.ticks.map((tick) => {
      const el = doc.createElement('span');
      el.className = 'chart__tick';
      el.dataset.testid = 'chart-tick';
      el.dataset.value = String(tick.value);
      el.style.left = `${(x.getPixelForValue(tick.value) / chart.width) * 100}%`;
      el.style.top = `${top}%`;
      for (const line of Array.isArray(tick.label) ? tick.label : [tick.label ?? '']) {
        const part = doc.createElement('span');
        part.textContent = String(line);
        el.append(part);
      }
      return el;
    }),
  );
}

/** After a zoom or pan: the readings of the new window drawn (peaks kept), and the window told. */
function viewChanged(chart: Chart, input: ChartInput, onView: (range: TimeRange | null) => void): void {
  const x = chart.scales.x;
  const range = chart.isZoomedOrPanned() ? { start: x.min, end: x.max } : null;
  const shown = range ?? input.span;
  if (shown) {
    chart.data.datasets[0].data = downsampleWindow(input.temperature, shown.start, shown.end);
    if (input.humidity && chart.data.datasets[1]) chart.data.datasets[1].data = downsampleWindow(input.humidity, shown.start, shown.end);
    chart.update('none');
  }
  onView(range);
}

/** How far one key press zooms (a factor) and pans (a share of the window). */
const KEY_ZOOM = 1.5;
const KEY_PAN = 0.25;

function buildConfig({ report, input, view, zone, print, onView, onDrawn, ticksBox }: BuildOptions): ChartConfiguration<'line', XY[]> {
  const limits = report.senseConfig.limits;
  const window = view ?? input.span ?? { start: 0, end: 1 };
  const datasets: ChartDataset<'line', XY[]>[] = [
    {
      label: 'Temperature (°C)',
      data: downsampleWindow(input.temperature, window.start, window.end),
      yAxisID: 'y',
      borderColor: CHART_COLORS.temperature,
      backgroundColor: CHART_COLORS.temperature,
      borderWidth: 2,
      pointRadius: input.temperature.length > 200 ? 0 : 2,
      pointHoverRadius: 4,
    },
  ];
  if (input.humidity) {
    datasets.push({
      label: 'Humidity (%RH)',
      data: downsampleWindow(input.humidity, window.start, window.end),
      yAxisID: 'y1',
      borderColor: CHART_COLORS.humidity,
      backgroundColor: CHART_COLORS.humidity,
      borderWidth: 1.5,
      borderDash: DASH.humidity,
      pointRadius: 0,
      pointHoverRadius: 4,
    });
  }
  // The limit lines stay in view even when every reading sits far inside them.
  const t = extent(input.temperature);
  const yScale = niceScale(Math.min(t.min, limits.minTemperature) - 0.5, Math.max(t.max, limits.maxTemperature) + 0.5, 8);
  const h = input.humidity ? extent(input.humidity) : null;
  const y1Scale = h
    ? niceScale(Math.max(0, Math.min(h.min, limits.minHumidity ?? h.min) - 2), Math.min(100, Math.max(h.max, limits.maxHumidity ?? h.max) + 2), 8)
    : null;
  const lines = limitLines(limits, input.humidity !== null);
  const newDayTicks = new Set<number>();
  let stepIsDays = false;

  const tellView = ({ chart }: { chart: Chart }) => viewChanged(chart, input, onView);
  const minRange = Math.max(report.senseConfig.interval * 4, 60);
  const axisTitle = (text: string, color: string) => ({ display: true, text, color, font: { weight: 'bold' as const } });
  return {
    type: 'line',
    data: { datasets },
    plugins: [
      overlayPlugin(input, lines, onDrawn),
      {
        id: 'htmlTimeTicks',
        afterDraw(chart) {
          placeTicks(chart, ticksBox());
        },
      },
    ],
    options: {
      animation: false,
      parsing: false,
      normalized: true,
      responsive: true,
      maintainAspectRatio: false,
      devicePixelRatio: print ? 2 : undefined,
      interaction: { mode: 'nearest', axis: 'x', intersect: false },
      scales: {
        x: {
          type: 'linear',
          min: window.start,
          max: window.end,
          title: axisTitle(`Time (${zoneLabel(zone)})`, CHART_COLORS.text),
          grid: { color: CHART_COLORS.grid },
          afterBuildTicks(axis) {
            const maxTicks = Math.max(2, Math.floor(axis.width / 90));
            const step = timeStep(axis.min, axis.max, maxTicks);
            const ticks = timeTicks(axis.min, axis.max, step, zone);
            stepIsDays = step >= 86400;
            newDayTicks.clear();
            for (const tick of ticks) if (tick.newDay) newDayTicks.add(tick.value);
            axis.ticks = ticks.map((tick) => ({ value: tick.value }));
          },
          // Labelled in HTML over the canvas (placeTicks): the canvas only leaves them room.
          afterFit(axis) {
            axis.height += TICK_ROOM;
          },
          ticks: {
            display: false,
            color: CHART_COLORS.text,
            maxRotation: 0,
            autoSkip: false,
            callback: (v) => {
              const value = Number(v);
              if (stepIsDays) return formatDay(value, zone);
              return newDayTicks.has(value) ? [formatClock(value, zone), formatDay(value, zone)] : formatClock(value, zone);
            },
          },
        },
        y: {
          type: 'linear',
          position: 'left',
          min: yScale.min,
          max: yScale.max,
          title: axisTitle('Temperature (°C)', CHART_COLORS.temperature),
          grid: { color: CHART_COLORS.grid },
          ticks: { color: CHART_COLORS.temperature, stepSize: yScale.step },
        },
        y1: {
          type: 'linear',
          display: y1Scale !== null,
          position: 'right',
          min: y1Scale?.min,
          max: y1Scale?.max,
          title: axisTitle('Humidity (%RH)', CHART_COLORS.humidity),
          grid: { drawOnChartArea: false },
          ticks: { color: CHART_COLORS.humidity, stepSize: y1Scale?.step },
        },
      },
      plugins: {
        legend: { labels: { color: CHART_COLORS.text, boxWidth: 28 } },
        tooltip: {
          enabled: !print,
          callbacks: {
            title: (items) => (items.length > 0 ? `${formatTime(items[0].parsed.x ?? 0, zone, true)} ${zone === 'utc' ? 'UTC' : ''}`.trim() : ''),
            label: (item) => (item.dataset.yAxisID === 'y1' ? `Humidity ${formatHumidity(item.parsed.y)}` : `Temperature ${formatTemperature(item.parsed.y)}`),
          },
        },
        zoom: {
          zoom: { wheel: { enabled: !print }, pinch: { enabled: !print }, mode: 'x', onZoomComplete: tellView },
          pan: { enabled: !print, mode: 'x', onPanComplete: tellView },
          limits: { x: { min: 'original', max: 'original', minRange } },
        },
      },
    },
  };
}

export interface ReportChartProps {
  report: LabelReport;
  onViewRange?: (range: TimeRange | null) => void;
  /** The print view's chart: no zoom or controls, drawn at print resolution. */
  print?: boolean;
  /** Called once the chart has been drawn (the print view waits for it). */
  onDrawn?: () => void;
}

export function ReportChart({ report, onViewRange, print = false, onDrawn }: ReportChartProps) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const chartRef = useRef<Chart<'line', XY[]> | null>(null);
  // The zoomed window survives an edit of the same report (new limits redraw, the view stays).
  const viewRef = useRef<{ id: string; range: TimeRange | null }>({ id: report.id, range: null });
  // The window shown, null for the whole run (said on the chart for tools and tests: data-view-start/end).
  const [view, setView] = useState<TimeRange | null>(null);
  const zoomed = view !== null;
  const ticksRef = useRef<HTMLDivElement>(null);
  const zone = useTimeZone();
  const input = useMemo(() => prepare(report), [report]);
  const onViewRangeRef = useRef(onViewRange);
  onViewRangeRef.current = onViewRange;
  const onDrawnRef = useRef(onDrawn);
  onDrawnRef.current = onDrawn;
  const onViewRef = useRef<(range: TimeRange | null) => void>(() => {});

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas || input.readings === 0) return;
    if (viewRef.current.id !== report.id) viewRef.current = { id: report.id, range: null };
    const onView = (range: TimeRange | null) => {
      viewRef.current.range = range;
      setView(range);
      onViewRangeRef.current?.(range);
    };
    onViewRef.current = onView;
    const chart = new Chart(
      canvas,
      buildConfig({
        report,
        input,
        view: viewRef.current.range,
        zone,
        print,
        onView,
        onDrawn: () => onDrawnRef.current?.(),
        ticksBox: () => ticksRef.current,
      }),
    );
    chartRef.current = chart;
    setView(viewRef.current.range);
    // The canvas keeps the pixel size of the screen unless told: drawn anew at paper size before
    // printing (print.css scales it to the page in any case), and back to the screen's after.
    const beforePrint = () => chart.resize(PRINT_SIZE.width, PRINT_SIZE.height);
    const afterPrint = () => chart.resize();
    window.addEventListener('beforeprint', beforePrint);
    window.addEventListener('afterprint', afterPrint);
    return () => {
      window.removeEventListener('beforeprint', beforePrint);
      window.removeEventListener('afterprint', afterPrint);
      chart.destroy();
      chartRef.current = null;
    };
  }, [report, input, zone, print]);

  useEffect(() => {
    // Nothing to draw: the print view must not wait for a chart that never comes.
    if (input.readings === 0) onDrawnRef.current?.();
  }, [input.readings]);

  if (input.readings === 0) {
    return (
      <div className="chart chart--empty" data-testid="report-chart-empty">
        {report.numberOfTaps === 0 ? 'No readings yet: the label has not been tapped.' : 'No readings: the taps so far carried none.'}
      </div>
    );
  }

  const shown = input.span;
  const resetView = () => {
    const chart = chartRef.current;
    if (chart && shown) {
      chart.resetZoom('none');
      chart.data.datasets[0].data = downsampleWindow(input.temperature, shown.start, shown.end);
      if (input.humidity && chart.data.datasets[1]) chart.data.datasets[1].data = downsampleWindow(input.humidity, shown.start, shown.end);
      chart.update('none');
    }
    viewRef.current.range = null;
    setView(null);
    onViewRangeRef.current?.(null);
  };
  /** Zoom and pan without a mouse: the toolbar's buttons and the chart's keys do the same. */
  const step = (action: 'in' | 'out' | 'earlier' | 'later') => {
    const chart = chartRef.current;
    if (!chart) return;
    if (action === 'in' || action === 'out') chart.zoom({ x: action === 'in' ? KEY_ZOOM : 1 / KEY_ZOOM });
    else chart.pan({ x: (action === 'earlier' ? 1 : -1) * (chart.chartArea.right - chart.chartArea.left) * KEY_PAN });
    viewChanged(chart, input, onViewRef.current);
  };
  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const action = { '+': 'in', '=': 'in', '-': 'out', ArrowLeft: 'earlier', ArrowRight: 'later' }[e.key] as Parameters<typeof step>[0] | undefined;
    if (action) step(action);
    else if (e.key === '0' || e.key === 'Home') resetView();
    else return;
    e.preventDefault();
  };
  return (
    <div className={`chart${print ? ' chart--print' : ''}`}>
      {!print && (
        <div className="chart__toolbar">
          <span className="muted small">
            {input.readings.toLocaleString()} readings (peaks kept when drawn) · wheel or pinch to zoom, drag to pan; on the chart + and − zoom, ← and → pan, 0 resets
          </span>
          <span className="chart__steps" role="group" aria-label="Zoom and pan">
            <button type="button" className="button button--small" onClick={() => step('in')} data-testid="chart-zoom-in">
              Zoom in
            </button>
            <button type="button" className="button button--small" onClick={() => step('out')} disabled={!zoomed} data-testid="chart-zoom-out">
              Zoom out
            </button>
            <button type="button" className="button button--small" onClick={() => step('earlier')} disabled={!zoomed} data-testid="chart-earlier">
              ◀ Earlier
            </button>
            <button type="button" className="button button--small" onClick={() => step('later')} disabled={!zoomed} data-testid="chart-later">
              Later ▶
            </button>
          </span>
          <label className="chart__zone">
            <span>Times in</span>
            <select
              value={zone}
              onChange={(e) => timeZoneStore.getState().setZone(e.target.value === 'utc' ? 'utc' : 'local')}
              data-testid="time-zone"
            >
              <option value="local">{zoneLabel('local')}</option>
              <option value="utc">UTC</option>
            </select>
          </label>
          <button
            type="button"
            className="button button--small"
            disabled={!zoomed}
            onClick={resetView}
          >
            Reset zoom
          </button>
        </div>
      )}
      <div
        className="chart__canvas"
        {...(!print && {
          tabIndex: 0,
          role: 'group',
          'aria-label': 'Chart: + and − zoom, ← and → pan, 0 resets',
          onKeyDown: onKey,
        })}
        data-view-start={view ? Math.round(view.start) : undefined}
        data-view-end={view ? Math.round(view.end) : undefined}
      >
        <canvas
          ref={canvasRef}
          role="img"
          aria-label={`Temperature${input.humidity ? ' and humidity' : ''} over time (${zoneLabel(zone)}) with limits, excursions and trim range`}
          data-testid="report-chart"
        />
        <div ref={ticksRef} className="chart__ticks" aria-hidden="true" />
      </div>
      <ul className="chart__legend-extra" aria-label="Chart key">
        <li>
          <span className="swatch swatch--excursion" aria-hidden="true" /> Out of range (marked along the bottom)
        </li>
        <li>
          <span className="line-key line-key--temperature" aria-hidden="true" /> Temperature limits (left axis)
        </li>
        {input.humidity && (
          <li>
            <span className="line-key line-key--humidity" aria-hidden="true" /> Humidity limits (right axis)
          </li>
        )}
        {input.trim && (
          <li>
            <span className="swatch swatch--outside-trim" aria-hidden="true" /> Left out by trim
          </li>
        )}
      </ul>
    </div>
  );
}
