/** Stub: built out in its own change. TEMPORARY (portal-reports): renders the Reports region
 * so its tests can open /comparisons/:id; the comparison page's own change replaces this. */
import { useParams } from "react-router";
import { ReportsRegion } from "./Reports";

export function ComparisonPage() {
  const { id = "" } = useParams();
  return (
    <>
      <h1>Comparison</h1>
      <ReportsRegion comparisonId={id} />
    </>
  );
}
