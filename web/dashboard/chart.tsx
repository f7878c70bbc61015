/**
 * The verifications chart: uPlot (small, no dependencies), one stacked bar per bucket, one colour
 * per outcome. uPlot does not stack by itself: each series gets the running total up to its
 * outcome, and the series are drawn tallest first, so every outcome shows as its own band. The
 * readout above the chart names the hovered bucket's real counts.
 */
import type { JSX } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import type { Range, Series } from './usage-query.js';

export const OUTCOME_COLORS: Record<string, string> = {
  VALID: '#16a34a',
  RATE_LIMITED: '#ea580c',
  USAGE_EXCEEDED: '#9333ea',
  DISABLED: '#64748b',
  EXPIRED: '#a16207',
  INSUFFICIENT_PERMISSIONS: '#db2777',
  NOT_FOUND: '#dc2626',
};

export const outcomeLabel = (outcome: string): string => outcome.toLowerCase().replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());

const colorOf = (outcome: string): string => OUTCOME_COLORS[outcome] ?? '#0ea5e9';

/** Outcomes with any verification in the range, in the chart's order (VALID at the bottom). */
function shownOutcomes(series: Series): [string, number[]][] {
  return [...series.byOutcome].filter(([outcome, values]) => outcome === 'VALID' || values.some((v) => v > 0));
}

function stackedData(series: Series, shown: readonly [string, number[]][]): uPlot.AlignedData {
  const running = series.xs.map(() => 0);
  const layers = shown.map(([, values]) => values.map((v, i) => (running[i]! += v)));
  return [series.xs, ...layers.reverse()];
}

const heightFor = (width: number): number => (width < 500 ? 220 : 300);

export function UsageChart({ series, range }: { series: Series; range: Range }): JSX.Element {
  const box = useRef<HTMLDivElement>(null);
  const readout = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const latest = useRef(series);
  latest.current = series;
  const shown = shownOutcomes(series);
  const signature = `${range.id}|${shown.map(([o]) => o).join(',')}`;

  useEffect(() => {
    const el = box.current;
    if (!el) return undefined;
    const dayRange = range.bucketMs >= 86_400_000;
    const bars = uPlot.paths.bars!({ size: [0.7, 48, 3], gap: 1 });
    const describe = (idx: number | null | undefined): string => {
      const s = latest.current;
      if (idx === null || idx === undefined || s.xs[idx] === undefined) return 'Point at a bar for its counts.';
      const when = new Date(s.xs[idx]! * 1000);
      const label = dayRange ? when.toLocaleDateString() : when.toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
      const parts = shownOutcomes(s).map(([o, values]) => `${outcomeLabel(o)} ${values[idx] ?? 0}`);
      return `${label} · ${parts.join(' · ')}`;
    };
    const opts: uPlot.Options = {
      width: Math.max(el.clientWidth, 240),
      height: heightFor(el.clientWidth),
      cursor: { drag: { x: false, y: false }, points: { show: false } },
      legend: { show: false },
      scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(4, Math.ceil(max * 1.15))] } },
      axes: [
        { stroke: '#64748b', grid: { show: false }, ticks: { stroke: '#e2e8f0' }, ...(dayRange ? { values: '{MMM} {D}' } : {}) },
        { stroke: '#64748b', grid: { stroke: '#eef2f7' }, ticks: { show: false }, size: 44, incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 50_000, 100_000, 1e6] },
      ],
      series: [
        {},
        ...[...shown].reverse().map(([outcome]) => ({ label: outcomeLabel(outcome), stroke: colorOf(outcome), fill: colorOf(outcome), width: 0, paths: bars, points: { show: false } })),
      ],
      hooks: { setCursor: [(u) => { if (readout.current) readout.current.textContent = describe(u.cursor.idx); }] },
    };
    const u = new uPlot(opts, stackedData(latest.current, shown), el);
    plot.current = u;
    if (readout.current) readout.current.textContent = describe(null);
    const resize = new ResizeObserver(() => u.setSize({ width: Math.max(el.clientWidth, 240), height: heightFor(el.clientWidth) }));
    resize.observe(el);
    return () => { resize.disconnect(); u.destroy(); plot.current = null; };
  }, [signature]);

  // New numbers for the same outcomes (live refresh): update in place, no flicker.
  useEffect(() => { plot.current?.setData(stackedData(series, shown)); }, [series]);

  return (
    <div class="chart-wrap">
      <div class="chart-legend">
        {shown.map(([outcome]) => <span key={outcome} class="legend-item"><span class="dot" style={{ background: colorOf(outcome) }} />{outcomeLabel(outcome)}</span>)}
      </div>
      <div class="chart" ref={box} data-testid="usage-chart" data-total={series.total} />
      <div class="chart-readout muted small" ref={readout} aria-live="off" />
    </div>
  );
}
