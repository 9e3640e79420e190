/** Stub: built out in its own change. */
export function DatasetPage() {
  return <h1>Dataset</h1>;
}
