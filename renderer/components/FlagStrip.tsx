/**
 * The list's out-of-range timeline: up to 50 flags from minimalSenseData.flattenedDatapoints,
 * drawn as one small SVG (no per-flag elements for the in-range ones) so a screen of rows stays cheap.
 */
export function FlagStrip({ flags }: { flags: readonly (0 | 1)[] }) {
  const n = flags.length;
  const bad = flags.reduce<number>((sum, f) => sum + f, 0);
  const label = n === 0 ? 'No readings' : bad === 0 ? 'In range throughout' : `Out of range in ${bad} of ${n} segments`;
  if (n === 0) return <span className="strip strip--empty">no readings</span>;
  return (
    <svg className="strip" viewBox={`0 0 ${n} 1`} preserveAspectRatio="none" role="img" aria-label={label}>
      <title>{label}</title>
      <rect className="strip__ok" x={0} y={0} width={n} height={1} />
      {flags.map((f, i) => (f === 1 ? <rect key={i} className="strip__bad" x={i} y={0} width={1} height={1} /> : null))}
    </svg>
  );
}
