/**
 * How the reflection writes its numbers: three significant digits (0.012 and 0.018 stay apart,
 * where two decimals read both as 0.01), and Eureka's series line: each checkpoint's value quoted,
 * then the maximum, mean and minimum.
 */

/** Three significant digits, without an exponent for ordinary magnitudes: 0.0123, 1.5, -152, 12300. */
export function formatValue(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  if (x === 0) return '0';
  return String(Number(x.toPrecision(3)));
}

/** A share as a percentage: 0.853 -> "85%", 0.004 -> "0.4%" (a rare ending stays visible). */
export function formatShare(x: number): string {
  const percent = x * 100;
  return `${percent === 0 || percent >= 1 ? Math.round(percent) : Number(percent.toPrecision(1))}%`;
}

/** "label: ['0.1', ...], Max: 0.9, Mean: 0.5, Min: 0.1"; a checkpoint with nothing measured shows as '-'. */
export function seriesLine(label: string, series: Array<number | null>, format: (x: number) => string = formatValue): string {
  const measured = series.filter((x): x is number => x !== null && Number.isFinite(x));
  if (measured.length === 0) return `${label}: [] (no data)`;
  const quoted = series.map((x) => `'${x === null ? '-' : format(x)}'`).join(', ');
  const mean = measured.reduce((a, b) => a + b, 0) / measured.length;
  return `${label}: [${quoted}], Max: ${format(Math.max(...measured))}, Mean: ${format(mean)}, Min: ${format(Math.min(...measured))}`;
}
