/** Stub: built out in its own change. */
export function ReleasesPage() {
  return <h1>Releases</h1>;
}
