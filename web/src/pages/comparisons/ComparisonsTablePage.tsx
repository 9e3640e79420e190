import { useEffect, type ReactNode } from "react";
import { useQuery } from "urql";
import { ErrorNotice } from "../../components/ErrorNotice";
import type { ComparisonStatus } from "../../gql/graphql";
import { ComparisonRow } from "./ComparisonRow";
import { ComparisonsListQuery } from "./listDocuments";
import { PAGE_SIZE } from "./listWindow";
import { statusWord } from "./words";

export interface PageState {
  rows: number;
  total: number;
  hasNextPage: boolean;
  endCursor: string | null;
}

const COLUMNS = 8;

/** One page of the comparisons table (its rows in the shared tbody); tells the list its size. */
export function ComparisonsTablePage({
  pageKey,
  after,
  status,
  first,
  onPage,
}: {
  pageKey: string;
  after: string | null;
  status: ComparisonStatus | null;
  first: boolean;
  onPage: (key: string, state: PageState) => void;
}) {
  const [{ data, error, fetching }] = useQuery({
    query: ComparisonsListQuery,
    variables: { first: PAGE_SIZE, after, status },
  });
  const page = data?.comparisons;
  useEffect(() => {
    if (!page) return;
    onPage(pageKey, {
      rows: page.edges.length,
      total: page.totalCount,
      hasNextPage: page.pageInfo.hasNextPage,
      endCursor: page.pageInfo.endCursor ?? null,
    });
  }, [page, pageKey, onPage]);

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
