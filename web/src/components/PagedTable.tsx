/**
 * A table of cursor pages shown a window at a time (lib/pageWindow.ts): `PagedTable` lays out
 * the head, one `children(after, pages)` per page shown, and "Load more"; each page's
 * component asks for its rows and hands them to `PageRows`.
 */
import { Fragment, type ReactNode } from "react";
import type { CombinedError } from "urql";
import { usePageWindow, useReportEnd, type LoadedPage, type PageWindow } from "../lib/pageWindow";
import { ErrorNotice } from "./ErrorNotice";
import { LoadMore } from "./LoadMore";

export function PagedTable({
  label,
  pageSize,
  what,
  head,
  children: page,
}: {
  /** The table's accessible name. */
  label: string;
  pageSize: number;
  /** What the rows are, for "N earlier … not shown". */
  what: string;
  /** The header cells. */
  head: ReactNode;
  children: (after: string | null, pages: PageWindow) => ReactNode;
}) {
  const pages = usePageWindow(pageSize);
  return (
    <>
      <table aria-label={label}>
        <thead>
          <tr>{head}</tr>
        </thead>
        <tbody>
          {pages.shown.map((after) => (
            <Fragment key={after ?? ""}>{page(after, pages)}</Fragment>
          ))}
        </tbody>
      </table>
      <LoadMore window={pages} what={what} />
    </>
  );
}

type Page<Edge> = LoadedPage & { edges: readonly Edge[] };

/**
 * One page's rows: tells the window where the page ends; until it has loaded, an error (or
 * `loading`, if given) shows in a row across the `columns`; an empty list reads `empty`.
 */
export function PageRows<Edge>({
  pages,
  after,
  page,
  error,
  columns,
  empty,
  loading,
  children: row,
}: {
  pages: PageWindow;
  after: string | null;
  page: Page<Edge> | undefined;
  error: CombinedError | undefined;
  columns: number;
  empty: string;
  loading?: string;
  /** One `<tr>` (with its key) per edge. */
  children: (edge: Edge) => ReactNode;
}) {
  useReportEnd(pages, after, page);
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
