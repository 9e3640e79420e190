import type { ReactNode } from "react";
import { useQuery } from "urql";
import { ErrorNotice } from "../../components/ErrorNotice";
import type { ComparisonStatus } from "../../gql/graphql";
import { useReportEnd, type PageWindow } from "../../lib/pageWindow";
import { ComparisonRow } from "./ComparisonRow";
import { ComparisonsListQuery } from "./listDocuments";
import { statusWord } from "../../lib/comparisonWords";

/** The comparisons list's page: the newest 20, then 20 older ones per "Load more". */
export const PAGE_SIZE = 20;

const COLUMNS = 8;

/** One page of the comparisons table (its rows in the shared tbody); tells the window its end. */
export function ComparisonsTablePage({
  after,
  status,
  first,
  pages,
}: {
  after: string | null;
  status: ComparisonStatus | null;
  /** The newest page: an empty list says so. */
  first: boolean;
  pages: PageWindow;
}) {
  const [{ data, error, fetching }] = useQuery({
    query: ComparisonsListQuery,
    variables: { first: PAGE_SIZE, after, status },
  });
  const page = data?.comparisons;
  useReportEnd(pages, after, page);

  if (error && !page) return <MessageRow><ErrorNotice error={error} /></MessageRow>;
  if (!page) return fetching ? <MessageRow>Loading comparisons…</MessageRow> : null;
  if (first && page.edges.length === 0)
    return (
      <MessageRow>
        {status
          ? `No comparisons with the status ${statusWord(status)}.`
          : "No comparisons yet. Choose New comparison to compare two releases on a dataset."}
      </MessageRow>
    );
  return (
    <>
      {page.edges.map(({ node }) => (
        <ComparisonRow key={node.id} node={node} />
      ))}
    </>
  );
}

function MessageRow({ children }: { children: ReactNode }) {
  return (
    <tr>
      <td colSpan={COLUMNS}>{children}</td>
    </tr>
  );
}
