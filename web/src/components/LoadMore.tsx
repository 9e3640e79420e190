import type { PageWindow } from "../lib/pageWindow";

/** "Load more" under a windowed list, and a way back once earlier rows were dropped. */
export function LoadMore({ window: pages, what }: { window: PageWindow; what: string }) {
  return (
    <div className="row">
      {pages.hiddenRows > 0 && (
        <>
          <span className="muted">
            {pages.hiddenRows} earlier {what} not shown.
          </span>
          <button type="button" onClick={pages.backToStart}>
            Back to the start
          </button>
        </>
      )}
      {pages.canLoadMore && (
        <button type="button" onClick={pages.loadMore}>
          Load more
        </button>
      )}
    </div>
  );
}
