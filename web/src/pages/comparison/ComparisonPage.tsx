/** Stub: built out in its own change. */
export function ComparisonPage() {
  return <h1>Comparison</h1>;
}
