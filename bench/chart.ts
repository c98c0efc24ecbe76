// The SVG chart of a run: for each workload (and unit), one bar per
// contender showing its median ratio to the workload's baseline, on a log
// scale centred on 1× (bars to the left beat the baseline, to the right cost
// more). Plain SVG text, no external service, readable without a legend
// lookup: every bar carries its value.

import { ratio as formatRatio } from './format.js';
import { CONTENDERS, higherIsBetter, type BenchRecord, type ContenderId } from './harness.js';
import { TARGET_RATIOS } from './targets.js';

const COLORS: Record<ContenderId, string> = {
  mcpwire: '#d6336c',
  'mcpwire-fetch': '#f783ac',
  sdk: '#1c7ed6',
  'sdk-novalidate': '#74c0fc',
  ndjson: '#f59f00',
  'floor-bytes': '#868e96',
  'floor-string': '#343a40',
  'sdk-v2': '#4c6ef5',
  'floor-node': '#adb5bd',
  toolsource: '#ae3ec9',
  'bare-client': '#e599f7',
  'one-server': '#ced4da',
  'bare-script': '#495057',
  'floor-wire': '#212529',
  'floor-wire-group': '#3b3f44',
  'ai-sdk': '#2f9e44',
  'floor-8-servers': '#dee2e6',
  'floor-fetch': '#5c5f66',
  'floor-http': '#0b0d0e',
  serve: '#f76707',
  'floor-relay': '#ffc078',
};

const WIDTH = 1000;
const LABEL_W = 270;
const PLOT_X = LABEL_W + 10;
const PLOT_W = 560;
const BAR_H = 12;
const BAR_GAP = 3;
const GROUP_GAP = 14;
/** Ratios are drawn between 0.1× and 100×; beyond, the bar is clipped and marked. */
const MIN_RATIO = 0.1;
const MAX_RATIO = 100;

function escape(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

function xOf(ratio: number): number {
  const clamped = Math.min(MAX_RATIO, Math.max(MIN_RATIO, ratio));
  return PLOT_X + ((Math.log10(clamped) - Math.log10(MIN_RATIO)) / (Math.log10(MAX_RATIO) - Math.log10(MIN_RATIO))) * PLOT_W;
}

interface Group {
  workload: string;
  unit: string;
  baseline: ContenderId;
  bars: BenchRecord[];
}

function groupsOf(records: readonly BenchRecord[]): Group[] {
  const groups: Group[] = [];
  for (const record of records) {
    let group = groups.find((g) => g.workload === record.workload && g.unit === record.unit);
    if (!group) {
      group = { workload: record.workload, unit: record.unit, baseline: record.baseline, bars: [] };
      groups.push(group);
    }
    if (record.contender !== record.baseline) group.bars.push(record);
  }
  for (const group of groups) group.bars.sort((a, b) => CONTENDERS.indexOf(a.contender) - CONTENDERS.indexOf(b.contender));
  return groups;
}

export function renderChart(records: readonly BenchRecord[], subtitle: string): string {
  const groups = groupsOf(records);
  const top = 44 + subtitle.split('; ').length * 16 + 66;
  const heights = groups.map((g) => Math.max(1, g.bars.length) * (BAR_H + BAR_GAP) + GROUP_GAP + 14);
  const height = top + heights.reduce((a, b) => a + b, 0) + 40;
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="system-ui, -apple-system, 'Segoe UI', sans-serif" font-size="12">`);
  out.push(`<rect width="${WIDTH}" height="${height}" fill="#ffffff"/>`);
  out.push(`<text x="16" y="26" font-size="17" font-weight="600">mcpwire benchmarks: median ratio to the baseline, same run (log scale)</text>`);
  // The subtitle (run, machine line, version measured) is long: one line per '; '-separated part.
  const parts = subtitle.split('; ');
  parts.forEach((part, i) => out.push(`<text x="16" y="${44 + i * 16}" fill="#555">${escape(part)}</text>`));
  const below = 44 + parts.length * 16;
  out.push(`<text x="16" y="${below + 2}" fill="#555">Left of 1× beats the baseline, right of it costs more (for calls/s, right is better). Bars past 0.1× or 100× are clipped (▸). ◆ = issue-4 target for mcpwire.</text>`);

  // Legend.
  let lx = 16;
  for (const id of CONTENDERS) {
    out.push(`<rect x="${lx}" y="${below + 12}" width="12" height="12" fill="${COLORS[id]}"/><text x="${lx + 16}" y="${below + 22}">${id}</text>`);
    lx += 26 + id.length * 7;
  }

  // Grid and ticks.
  const bottom = height - 30;
  for (const tick of [0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100]) {
    const x = xOf(tick).toFixed(1);
    out.push(`<line x1="${x}" y1="${top - 4}" x2="${x}" y2="${bottom}" stroke="${tick === 1 ? '#222' : '#e3e3e3'}" stroke-width="${tick === 1 ? 1.5 : 1}"/>`);
    out.push(`<text x="${x}" y="${bottom + 16}" text-anchor="middle" fill="#555">${tick}×</text>`);
    out.push(`<text x="${x}" y="${top - 8}" text-anchor="middle" fill="#555">${tick}×</text>`);
  }

  let y = top;
  groups.forEach((group, i) => {
    const better = higherIsBetter(group.unit) ? ', higher is better' : '';
    out.push(`<text x="16" y="${y + 11}" font-weight="600">${escape(group.workload)}</text>`);
    out.push(`<text x="16" y="${y + 25}" fill="#666" font-size="11">${escape(`${group.unit}${better}; vs ${group.baseline}`)}</text>`);
    let by = y;
    for (const bar of group.bars) {
      const x1 = xOf(1);
      const x2 = xOf(bar.ratio);
      const left = Math.min(x1, x2);
      const w = Math.max(1, Math.abs(x2 - x1));
      const clipped = bar.ratio > MAX_RATIO || bar.ratio < MIN_RATIO;
      out.push(`<rect x="${left.toFixed(1)}" y="${by}" width="${w.toFixed(1)}" height="${BAR_H}" fill="${COLORS[bar.contender]}"><title>${escape(`${bar.contender}: ${formatRatio(bar.ratio)} (${bar.median} ${bar.unit})`)}</title></rect>`);
      const target = bar.contender === 'mcpwire' ? TARGET_RATIOS.find((t) => t.workload === bar.workload && t.unit === bar.unit) : undefined;
      if (target) {
        const tx = xOf(target.ratio);
        out.push(`<path d="M${tx.toFixed(1)} ${by - 2} l4 ${BAR_H / 2 + 2} l-4 ${BAR_H / 2 + 2} l-4 ${-(BAR_H / 2 + 2)} z" fill="#111"><title>${escape(`issue-4 target: ${higherIsBetter(bar.unit) ? '≥' : '≤'} ${target.ratio}×`)}</title></path>`);
      }
      const label = `${clipped ? '▸ ' : ''}${formatRatio(bar.ratio)} ${bar.contender}${target ? ` (target ${higherIsBetter(bar.unit) ? '≥' : '≤'} ${target.ratio}×)` : ''}`;
      // Labels sit right of the bar's outer end (or of the 1× line for bars going left, or of the target mark), so they never run into the workload names.
      const labelX = Math.max(x1, x2, target ? xOf(target.ratio) + 5 : 0) + 4;
      out.push(`<text x="${labelX.toFixed(1)}" y="${by + 10}" font-size="11" fill="#333">${escape(label)}</text>`);
      by += BAR_H + BAR_GAP;
    }
    y += heights[i]!;
    out.push(`<line x1="16" y1="${y - GROUP_GAP / 2}" x2="${WIDTH - 16}" y2="${y - GROUP_GAP / 2}" stroke="#f1f1f1"/>`);
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
