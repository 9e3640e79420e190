/** Stub: built out in its own change. */
export function ExperimentsPage() {
  return <h1>Experiments</h1>;
}
