/** Stub: built out in its own change. */
export function ExperimentPage() {
  return <h1>Experiment</h1>;
}
