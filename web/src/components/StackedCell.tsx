import type { ReactNode, TdHTMLAttributes } from "react";

/**
 * A cell of a `table.stacked`: on a phone its row becomes stacked lines, each cell's value
 * beside its column's name (`label`, shown by styles.css); on a wide screen a plain cell.
 */
export function StackedCell({
  label,
  children,
  ...rest
}: TdHTMLAttributes<HTMLTableCellElement> & { label: string; children: ReactNode }) {
  return (
    <td data-label={label} {...rest}>
      <div className="stacked-value">{children}</div>
    </td>
  );
}
