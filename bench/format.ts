// Number formatting shared by the console tables, RESULTS.md and the chart.

/** Three significant digits, without exponent notation for the magnitudes a benchmark produces. */
export function num(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  if (abs >= 100) return value.toFixed(0);
  if (abs >= 10) return value.toFixed(1);
  if (abs >= 1) return value.toFixed(2);
  return value.toPrecision(3);
}

export function ratio(value: number): string {
  return `${value >= 10 ? value.toFixed(1) : value.toFixed(2)}×`;
}
