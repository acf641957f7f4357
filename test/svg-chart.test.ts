/**
 * A line chart's reference lines stay on the chart: a behaviour's card plotted the torso's height
 * between 0.5 and 1.5 m beside the robot's "ends below 0.2" line, drawn 700 px below a 280 px chart.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lineChart, type LineChartOptions } from '../core/svg.ts';

const chart = (refs: LineChartOptions['refs'], y?: LineChartOptions['y']): string => lineChart({
  chart: 'height', title: 'torso height', width: 480, height: 280, xLabel: 'step', yLabel: 'm', ...(y === undefined ? {} : { y }), refs,
  series: [{ label: 'torso', color: '#000', points: [[0, 0.5], [50, 1.5], [100, 0.9]] }],
});

/** Each reference line's ends. */
const refLines = (svg: string): Array<{ x1: number; x2: number; y1: number; y2: number }> =>
  [...svg.matchAll(/<line x1="([\d.-]+)" x2="([\d.-]+)" y1="([\d.-]+)" y2="([\d.-]+)" stroke="#dc2626"/g)]
    .map(([, x1, x2, y1, y2]) => ({ x1: Number(x1), x2: Number(x2), y1: Number(y1), y2: Number(y2) }));

describe('Function: lineChart', () => {
  it('reaches a reference line the data stays away from, on either axis', () => {
    const lines = refLines(chart([{ axis: 'y', at: 0.2, label: 'ends below 0.2', color: '#dc2626' }, { axis: 'x', at: 400, label: 'budget', color: '#dc2626' }]));
    assert.equal(lines.length, 2);
    for (const l of lines) assert.ok([l.x1, l.x2].every((x) => x >= 0 && x <= 480) && [l.y1, l.y2].every((y) => y >= 0 && y <= 280), JSON.stringify(l));
  });

  it('keeps an axis the caller set, as it is', () => {
    const a = chart([], [0, 2]);
    const b = chart([{ axis: 'y', at: 5, label: 'far', color: '#dc2626' }], [0, 2]);
    assert.equal(a.replace(/<line[^>]*stroke="#dc2626"[^>]*\/><text[^>]*>far<\/text>/, ''), b.replace(/<line[^>]*stroke="#dc2626"[^>]*\/><text[^>]*>far<\/text>/, ''));
  });
});
