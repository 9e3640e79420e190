/**
 * A table of cursor pages shown a window at a time (lib/pageWindow.ts): the head, one query per
 * page shown (its own `first`/`after`), a row per edge, and "Load more". Until a page has
 * loaded its error shows in a row across the table; an empty list reads `empty`.
 */
import { Fragment, useEffect, type ReactNode } from "react";
import { type AnyVariables, type CombinedError, type DocumentInput } from "urql";
import { useQuery } from "../lib/query";
import { usePageWindow, useReportEnd, type LoadedPage, type PageWindow } from "../lib/pageWindow";
import { ErrorNotice } from "./ErrorNotice";
import { LoadMore } from "./LoadMore";
import { TableScroll } from "./TableScroll";

export type Page<Edge> = LoadedPage & { edges: readonly Edge[] };

export interface PageVariables {
  first: number;
  after?: string | null;
}

/** How to ask for one page and how to show its rows. */
interface PageQuery<Data, Variables extends AnyVariables & PageVariables, Edge> {
  query: DocumentInput<Data, Variables>;
  /** The query's variables besides `first` and `after`. */
  variables: Omit<Variables, "first" | "after">;
  pageSize: number;
  /** The connection in the query's data. */
  select: (data: Data) => Page<Edge> | undefined;
  /** Changed (a count bumped after a mutation): every page shown asks the server again. */
  revision?: number;
  columns: number;
  empty: string;
  /** Shown in a row while the page loads; nothing if left out. */
  loading?: string;
  /** One `<tr>` (with its key) per edge. */
  children: (edge: Edge) => ReactNode;
}

export function PagedTable<Data, Variables extends AnyVariables & PageVariables, Edge>({
  label,
  what,
  head,
  className,
  ...page
}: PageQuery<Data, Variables, Edge> & {
  /** The table's accessible name. */
  label: string;
  /** "stacked": on a phone each row becomes lines of label: value (components/StackedCell). */
  className?: string;
  /** What the rows are, for "N earlier … not shown". */
  what: string;
  /** The header cells. */
  head: ReactNode;
}) {
  const pages = usePageWindow(page.pageSize);
  return (
    <>
      <TableScroll>
        <table aria-label={label} className={className}>
          <thead>
            <tr>{head}</tr>
          </thead>
          <tbody>
            {pages.shown.map((after) => (
              <Fragment key={after ?? ""}>
                <QueriedPage {...page} pages={pages} after={after} />
              </Fragment>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <LoadMore window={pages} what={what} />
    </>
  );
}

/** One page of a windowed table: its query, then its rows (for a table laid out elsewhere). */
export function QueriedPage<Data, Variables extends AnyVariables & PageVariables, Edge>({
  query,
  variables,
  pageSize,
  select,
  revision = 0,
  pages,
  after,
  ...rows
}: PageQuery<Data, Variables, Edge> & { pages: PageWindow; after: string | null }) {
  const [{ data, error }, reexecute] = useQuery<Data, Variables>({
    query,
    variables: { ...variables, first: pageSize, after } as Variables,
  });
  useEffect(() => {
    if (revision > 0) reexecute({ requestPolicy: "network-only" });
  }, [revision, reexecute]);
  const page = data === undefined ? undefined : select(data);
  useReportEnd(pages, after, page);
  return <PageRows page={page} error={error} {...rows} />;
}

function PageRows<Edge>({
  page,
  error,
  columns,
  empty,
  loading,
  children: row,
}: Pick<PageQuery<never, never, Edge>, "columns" | "empty" | "loading" | "children"> & {
  page: Page<Edge> | undefined;
  error: CombinedError | undefined;
}) {
  if (!page) {
    if (error) {
      return (
        <WholeRow columns={columns}>
          <ErrorNotice error={error} />
        </WholeRow>
      );
    }
    return loading ? <WholeRow columns={columns}>{loading}</WholeRow> : null;
  }
  if (page.totalCount === 0) {
    return (
      <WholeRow columns={columns} className="muted">
        {empty}
      </WholeRow>
    );
  }
  return <>{page.edges.map(row)}</>;
}

function WholeRow({
  columns,
  className,
  children,
}: {
  columns: number;
  className?: string;
  children: ReactNode;
}) {
  return (
    <tr>
      <td colSpan={columns} className={className}>
        {children}
      </td>
    </tr>
  );
}
