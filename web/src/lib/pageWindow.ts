/**
 * Cursor pages shown a window at a time: "Load more" adds the next page and, past
 * `maxRows`, drops the oldest, so a list never renders more than `maxRows` rows.
 * Each page is its own query (its own cache entry, refreshed when a mutation touches its
 * types); the last page reports where the next one starts.
 */
import { useCallback, useEffect, useState } from "react";

export const MAX_ROWS = 100;

export interface PageEnd {
  hasNextPage: boolean;
  endCursor: string | null | undefined;
}

export interface PageWindow {
  /** The `after` cursor of every page to render, oldest first. */
  shown: (string | null)[];
  /** Rows of earlier pages no longer rendered. */
  hiddenRows: number;
  canLoadMore: boolean;
  loadMore: () => void;
  backToStart: () => void;
  /** A page's component calls this with its pageInfo. */
  reportEnd: (after: string | null, end: PageEnd) => void;
}

export function usePageWindow(pageSize: number, maxRows: number = MAX_ROWS): PageWindow {
  const [starts, setStarts] = useState<(string | null)[]>([null]);
  const [ends, setEnds] = useState<Record<string, PageEnd>>({});
  const pagesShown = Math.max(1, Math.floor(maxRows / pageSize));
  const last = starts[starts.length - 1] ?? null;
  const lastEnd = ends[last ?? ""];
  const reportEnd = useCallback((after: string | null, end: PageEnd) => {
    setEnds((known) => {
      const key = after ?? "";
      const old = known[key];
      if (old && old.hasNextPage === end.hasNextPage && old.endCursor === end.endCursor) {
        return known;
      }
      return { ...known, [key]: end };
    });
  }, []);
  const canLoadMore = Boolean(lastEnd?.hasNextPage && lastEnd.endCursor);
  return {
    shown: starts.slice(-pagesShown),
    hiddenRows: Math.max(0, starts.length - pagesShown) * pageSize,
    canLoadMore,
    loadMore: () => {
      if (canLoadMore && lastEnd?.endCursor) setStarts([...starts, lastEnd.endCursor]);
    },
    backToStart: () => setStarts([null]),
    reportEnd,
  };
}

/** In a page's component: tell the window where this page ends, once it has loaded. */
export function useReportEnd(
  pages: Pick<PageWindow, "reportEnd">,
  after: string | null,
  end: PageEnd | undefined,
): void {
  const { reportEnd } = pages;
  const hasNextPage = end?.hasNextPage;
  const endCursor = end?.endCursor;
  useEffect(() => {
    if (hasNextPage !== undefined) reportEnd(after, { hasNextPage, endCursor });
  }, [reportEnd, after, hasNextPage, endCursor]);
}
