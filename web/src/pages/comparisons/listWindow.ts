/**
 * The comparisons list shows at most 100 rows: pages of 20 are appended until 100 are shown;
 * the next "Load more" then starts a new window at the next page instead of appending.
 */
export const PAGE_SIZE = 20;
export const MAX_ROWS = 100;
const MAX_PAGES = MAX_ROWS / PAGE_SIZE;

export interface ListWindow {
  /** The `after` cursor of each page shown (null: the newest). */
  afters: (string | null)[];
  /** Rows before this window: those of the earlier windows. */
  offset: number;
}

export const FIRST_WINDOW: ListWindow = { afters: [null], offset: 0 };

/** The window after "Load more", given the last page's end cursor and the rows now shown. */
export function loadMore(window: ListWindow, endCursor: string, shown: number): ListWindow {
  if (window.afters.length < MAX_PAGES) return { ...window, afters: [...window.afters, endCursor] };
  return { afters: [endCursor], offset: window.offset + shown };
}

/** Whether the next "Load more" replaces the rows shown rather than adding to them. */
export function isFull(window: ListWindow): boolean {
  return window.afters.length >= MAX_PAGES;
}
