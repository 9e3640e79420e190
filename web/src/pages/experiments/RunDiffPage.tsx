/** Stub: built out in its own change. */
export function RunDiffPage() {
  return <h1>Run diff</h1>;
}
