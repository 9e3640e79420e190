import { useQuery } from "../../lib/query";
import { QueriedPage } from "../../components/PagedTable";
import type { ComparisonStatus } from "../../gql/graphql";
import { statusWord } from "../../lib/comparisonWords";
import type { PageWindow } from "../../lib/pageWindow";
import { ComparisonRow } from "./ComparisonRow";
import { ComparisonsListQuery, ComparisonsSignOffsQuery } from "./listDocuments";
import { memberNames } from "../comparison/ReportNames";
import type { SignOffDecision } from "../../gql/graphql";

interface RowSignOff {
  decision: SignOffDecision;
  signer: string;
}

/** The page's latest sign-off per comparison id, with the signer's name. */
function usePageSignOffs(after: string | null, status: ComparisonStatus | null) {
  const [{ data }] = useQuery({
    query: ComparisonsSignOffsQuery,
    variables: { first: PAGE_SIZE, after, status },
  });
  const signOffs = new Map<string, RowSignOff>();
  if (!data) return signOffs;
  const names = memberNames(data.members.edges.map((e) => e.node));
  for (const { node } of data.comparisons.edges) {
    const signOff = [...node.reports].reverse().find((r) => r.signOff)?.signOff;
    if (signOff) signOffs.set(node.id, { decision: signOff.decision, signer: names(signOff.signerMemberId) });
  }
  return signOffs;
}

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
  const signOffs = usePageSignOffs(after, status);
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
      {({ node }) => <ComparisonRow key={node.id} node={node} signOff={signOffs.get(node.id)} />}
    </QueriedPage>
  );
}
