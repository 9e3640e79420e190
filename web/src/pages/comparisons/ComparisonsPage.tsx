/** Stub: built out in its own change. */
export function ComparisonsPage() {
  return <h1>Comparisons</h1>;
}
