/** Stub: built out in its own change. */
export function NewComparisonPage() {
  return <h1>New comparison</h1>;
}
