/*
 * The account page's charts in the browser (bundled with uPlot into /desk/assets/chart.<hash>.js):
 * fetches the window's data from the desk's API and replaces the server-drawn SVG with two linked
 * uPlot charts, equity (deposits and withdrawals marked) and the underwater drawdown (levels and
 * the kill switch as dashed lines): drag to zoom, double-click to reset, a crosshair with the
 * values. Without it (scripts off, or a failed fetch) the SVG stays.
 */
import uPlot from 'uplot';
import { axisTimeLabels, crosshairTime } from './chartTime';

interface ChartData {
  readonly stored: number;
  readonly t: readonly number[];
  readonly equity: readonly number[];
  readonly drawdown: readonly number[];
  readonly flows: readonly { readonly t: number; readonly amount: number }[];
  readonly levels: readonly number[];
  readonly killSwitch: number | null;
  /** The account's zone: the charts' times are written in it, as the rest of the page's. */
  readonly timeZone: string;
}

const money = (v: number | null | undefined): string =>
  v === null || v === undefined ? '—' : `${v < 0 ? '−' : ''}$${Math.abs(v).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const percent = (v: number | null | undefined): string => (v === null || v === undefined ? '—' : `${Math.abs(v).toFixed(2)}%`);

function chartHost(parent: HTMLElement, label: string): HTMLElement {
  const div = document.createElement('div');
  div.setAttribute('role', 'img');
  div.setAttribute('aria-label', label);
  parent.appendChild(div);
  return div;
}

/** Draws dashed horizontal lines at each level (negative drawdown) across the plot. */
function levelLines(levels: readonly number[], killSwitch: number | null): (u: uPlot) => void {
  return (u) => {
    const { ctx, bbox } = u;
    ctx.save();
    ctx.setLineDash([6, 4]);
    ctx.lineWidth = 1.5 * devicePixelRatio;
    const lines = [...levels.map((l) => ({ value: l, colour: '#93370d' })), ...(killSwitch === null ? [] : [{ value: killSwitch, colour: '#b42318' }])];
    for (const line of lines) {
      const y = u.valToPos(-line.value, 'y', true);
      if (y < bbox.top || y > bbox.top + bbox.height) continue;
      ctx.strokeStyle = line.colour;
      ctx.beginPath();
      ctx.moveTo(bbox.left, y);
      ctx.lineTo(bbox.left + bbox.width, y);
      ctx.stroke();
    }
    ctx.restore();
  };
}

function draw(host: HTMLElement, data: ChartData): void {
  const width = Math.max(280, host.clientWidth);
  const flowAt = new Map(data.flows.map((f) => [f.t, f.amount]));
  const flowPoints = data.t.map((t, i) => (flowAt.has(t) ? (data.equity[i] ?? null) : null));
  const sync = { key: 'desk-account', setSeries: false, scales: ['x', null] as [string, null] };
  // Ticks at the account's local midnights and hours, labelled and read out in its zone, not the browser's.
  const tzDate = (seconds: number): Date => uPlot.tzDate(new Date(seconds * 1000), data.timeZone);
  const timeAxis: uPlot.Axis = { values: (_u, splits, _axis, _space, incr) => axisTimeLabels(splits, incr, data.timeZone) };
  const timeSeries: uPlot.Series = { value: (_u, v) => crosshairTime(v, data.timeZone) };
  host.replaceChildren();
  const equity = new uPlot(
    {
      width,
      height: 240,
      tzDate,
      cursor: { sync },
      scales: { x: { time: true } },
      series: [
        timeSeries,
        { label: 'Equity', stroke: '#1849a9', width: 1.5, value: (_u, v) => money(v) },
        {
          label: 'Deposit or withdrawal',
          stroke: '#067647',
          paths: () => null,
          points: { show: true, size: 9, fill: '#067647' },
          value: (_u, _v, _s, i) => (i === null ? '—' : flowAt.has(data.t[i] ?? -1) ? money(flowAt.get(data.t[i] ?? -1)) : '—'),
        },
      ],
      axes: [timeAxis, { values: (_u, ticks) => ticks.map((v) => money(v).replace(/\.\d\d$/, '')), size: 80 }],
    },
    [[...data.t], [...data.equity], flowPoints] as uPlot.AlignedData,
    chartHost(host, 'Equity chart: drag to zoom, double-click to reset; the values follow the crosshair'),
  );
  const underwater = new uPlot(
    {
      width,
      height: 170,
      tzDate,
      cursor: { sync },
      scales: { x: { time: true }, y: { range: (_u, min) => [Math.min(min, -Math.max(0, ...data.levels, data.killSwitch ?? 0) * 1.1), 0] } },
      series: [timeSeries, { label: 'Drawdown', stroke: '#b42318', fill: 'rgba(180,35,24,0.15)', width: 1.5, value: (_u, v) => percent(v) }],
      axes: [timeAxis, { values: (_u, ticks) => ticks.map((v) => `${v.toFixed(1)}%`), size: 80 }],
      hooks: { draw: [levelLines(data.levels, data.killSwitch)] },
    },
    [[...data.t], data.drawdown.map((d) => -d)] as uPlot.AlignedData,
    chartHost(host, 'Underwater drawdown chart, with the alert levels and the kill switch as dashed lines'),
  );
  host.dataset['rendered'] = 'true';
  host.dataset['renderedPoints'] = String(data.t.length);
  host.dataset['deepest'] = String(Math.max(0, ...data.drawdown));
  let pending = 0;
  window.addEventListener('resize', () => {
    cancelAnimationFrame(pending);
    pending = requestAnimationFrame(() => {
      const w = Math.max(280, host.clientWidth);
      equity.setSize({ width: w, height: 240 });
      underwater.setSize({ width: w, height: 170 });
    });
  });
}

async function main(): Promise<void> {
  const host = document.getElementById('desk-chart');
  const url = host?.dataset['series'];
  if (!host || !url) return;
  const response = await fetch(url, { credentials: 'same-origin', headers: { accept: 'application/json' } });
  if (!response.ok) return;
  draw(host, (await response.json()) as ChartData);
}

void main();
