import type { ReactNode } from "react";

/**
 * A wide table scrolls inside its own box on a narrow screen, so the page never scrolls
 * sideways; focusable, so the keyboard can scroll it too.
 */
export function TableScroll({ children }: { children: ReactNode }) {
  return (
    <div className="table-scroll" tabIndex={0}>
      {children}
    </div>
  );
}
