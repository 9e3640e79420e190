import { QueriedPage } from "../../components/PagedTable";
import type { ComparisonStatus } from "../../gql/graphql";
import { statusWord } from "../../lib/comparisonWords";
import type { PageWindow } from "../../lib/pageWindow";
import { ComparisonRow } from "./ComparisonRow";
import { ComparisonsListQuery } from "./listDocuments";

/** The comparisons list's page: the newest 20, then 20 older ones per "Load more". */
export const PAGE_SIZE = 20;

/** One page of the comparisons table (its rows in the shared tbody); tells the window its end. */
export function ComparisonsTablePage({
  after,
  status,
  pages,
}: {
  after: string | null;
  status: ComparisonStatus | null;
  pages: PageWindow;
}) {
  return (
    <QueriedPage
      query={ComparisonsListQuery}
      variables={{ status }}
      pageSize={PAGE_SIZE}
      select={(data) => data.comparisons}
      pages={pages}
      after={after}
      columns={8}
      loading="Loading comparisons…"
      empty={
        status
          ? `No comparisons with the status ${statusWord(status)}.`
          : "No comparisons yet. Choose New comparison to compare two releases on a dataset."
      }
    >
      {({ node }) => <ComparisonRow key={node.id} node={node} />}
    </QueriedPage>
  );
}
