/**
 * Cursor pages shown a window at a time, so a list never renders more than `maxRows` rows:
 * "Load more" adds the next page until the window is full; past that, `overflow` says what
 * makes way — "slide" drops the oldest page, "turn" starts a fresh window at the next page.
 * Each page is its own query (its own cache entry, refreshed when a mutation touches its
 * types); each page reports where it ends and how many rows it holds.
 */
import { useCallback, useEffect, useState } from "react";

export const MAX_ROWS = 100;

export type Overflow = "slide" | "turn";

export interface PageEnd {
  hasNextPage: boolean;
  endCursor: string | null | undefined;
  /** The rows this page holds, and those of the whole list. */
  rows: number;
  total: number;
}

export interface PageWindow {
  /** The `after` cursor of every page to render, oldest first. */
  shown: (string | null)[];
  /** Rows of earlier pages no longer rendered. */
  hiddenRows: number;
  /** Rows of the pages rendered that have loaded. */
  shownRows: number;
  /** The list's rows in all, once the first page rendered has loaded. */
  total: number | undefined;
  /** The window is full: the next "Load more" makes earlier rows give way. */
  full: boolean;
  canLoadMore: boolean;
  loadMore: () => void;
  backToStart: () => void;
  /** A page's component calls this with its end (see `useReportEnd`). */
  reportEnd: (after: string | null, end: PageEnd) => void;
}

/** Of the pages loaded so far (oldest first), those the window renders. */
export function shownPages<T>(loaded: readonly T[], pagesShown: number, overflow: Overflow): T[] {
  if (overflow === "slide") return loaded.slice(-pagesShown);
  return loaded.slice(Math.floor((loaded.length - 1) / pagesShown) * pagesShown);
}

export function usePageWindow(
  pageSize: number,
  { maxRows = MAX_ROWS, overflow = "slide" }: { maxRows?: number; overflow?: Overflow } = {},
): PageWindow {
  const [starts, setStarts] = useState<(string | null)[]>([null]);
  const [ends, setEnds] = useState<Record<string, PageEnd>>({});
  const pagesShown = Math.max(1, Math.floor(maxRows / pageSize));
  const shown = shownPages(starts, pagesShown, overflow);
  const endOf = (after: string | null | undefined) => ends[after ?? ""];
  const lastEnd = endOf(starts[starts.length - 1]);
  const reportEnd = useCallback((after: string | null, end: PageEnd) => {
    setEnds((known) => {
      const key = after ?? "";
      const old = known[key];
      if (
        old &&
        old.hasNextPage === end.hasNextPage &&
        old.endCursor === end.endCursor &&
        old.rows === end.rows &&
        old.total === end.total
      ) {
        return known;
      }
      return { ...known, [key]: end };
    });
  }, []);
  const canLoadMore = Boolean(lastEnd?.hasNextPage && lastEnd.endCursor);
  return {
    shown,
    hiddenRows: (starts.length - shown.length) * pageSize,
    shownRows: shown.reduce((sum, after) => sum + (endOf(after)?.rows ?? 0), 0),
    total: endOf(shown[0])?.total,
    full: shown.length >= pagesShown,
    canLoadMore,
    loadMore: () => {
      if (canLoadMore && lastEnd?.endCursor) setStarts([...starts, lastEnd.endCursor]);
    },
    backToStart: () => setStarts([null]),
    reportEnd,
  };
}

/** A page as a connection gives it. */
export interface LoadedPage {
  totalCount: number;
  pageInfo: { hasNextPage: boolean; endCursor?: string | null };
  edges: readonly unknown[];
}

/** In a page's component: tell the window where this page ends, once it has loaded. */
export function useReportEnd(
  pages: Pick<PageWindow, "reportEnd">,
  after: string | null,
  page: LoadedPage | undefined,
): void {
  const { reportEnd } = pages;
  const hasNextPage = page?.pageInfo.hasNextPage;
  const endCursor = page?.pageInfo.endCursor;
  const rows = page?.edges.length ?? 0;
  const total = page?.totalCount ?? 0;
  useEffect(() => {
    if (hasNextPage !== undefined) reportEnd(after, { hasNextPage, endCursor, rows, total });
  }, [reportEnd, after, hasNextPage, endCursor, rows, total]);
}
