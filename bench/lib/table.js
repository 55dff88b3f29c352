// Fixed-width text tables, as the bench scripts print them on the terminal.

/** A number as a cell: `digits` decimals, `—` for none. */
export function fmt(value, digits = 0) {
  return value === null || value === undefined ? '—' : value.toFixed(digits)
}

/**
 * Prints `header`, a rule of dashes and `rows` (arrays of strings) in columns two spaces apart,
 * each as wide as its widest cell: the first column left-aligned, the others right-aligned.
 */
export function printTable(header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)))
  const line = (cells) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ')
  console.log(line(header))
  console.log(widths.map((w) => '-'.repeat(w)).join('  '))
  for (const row of rows) console.log(line(row))
}
