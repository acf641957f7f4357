/** A Unicode sparkline for card.md: one block per value (▁ to █), scaled to the values' range or a given one. */
const BLOCKS = '▁▂▃▄▅▆▇█';

export function blocks(values: number[], domain?: [number, number]): string {
  const v = values.filter(Number.isFinite);
  if (v.length === 0) return '';
  const [lo, hi] = domain ?? [Math.min(...v), Math.max(...v)];
  return v.map((x) => BLOCKS[hi > lo ? Math.round(Math.min(1, Math.max(0, (x - lo) / (hi - lo))) * 7) : 3]).join('');
}
