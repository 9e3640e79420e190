/** Stub: built out in its own change. */
export function DatasetsPage() {
  return <h1>Datasets</h1>;
}
