/** Stub: the `region` "Reports" (generate, versions, follow-ups, sign-off) is its own change. */
export function ReportsRegion({ comparisonId }: { comparisonId: string }) {
  return (
    <section aria-label="Reports" data-comparison={comparisonId}>
      <h2>Reports</h2>
    </section>
  );
}
