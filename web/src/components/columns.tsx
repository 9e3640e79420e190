/** A table's columns declared once: the header cells and each row's cells (stacked on a phone). */
import type { ReactNode } from "react";
import { StackedCell } from "./StackedCell";

/** One column: its name (the header, and the label of its value on a phone) and its cell. */
export interface Column<Row> {
  name: string;
  /** The header only for assistive technology (an actions column), and no label on a phone. */
  hiddenName?: boolean;
  className?: string;
  cell: (row: Row) => ReactNode;
}

export function HeadCells<Row>({ columns }: { columns: readonly Column<Row>[] }) {
  return (
    <>
      {columns.map((column) => (
        <th scope="col" key={column.name} className={column.className}>
          {column.hiddenName ? <span className="visually-hidden">{column.name}</span> : column.name}
        </th>
      ))}
    </>
  );
}

export function RowCells<Row>({ columns, row }: { columns: readonly Column<Row>[]; row: Row }) {
  return (
    <>
      {columns.map((column) =>
        column.hiddenName ? (
          <td key={column.name} className={column.className}>
            {column.cell(row)}
          </td>
        ) : (
          <StackedCell key={column.name} label={column.name} className={column.className}>
            {column.cell(row)}
          </StackedCell>
        ),
      )}
    </>
  );
}
