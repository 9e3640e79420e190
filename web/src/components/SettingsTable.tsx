/**
 * The settings tables' one shell ("Model connections", "Members", "API tokens", "Webhooks"):
 * a section headed by its title, a `table` of that name whose rows stack on a phone (label:
 * value), the read's error in words, what goes between the table and the add button (notes,
 * a mutation's error), and the add button for `add.needs` and up. A row's own actions are
 * `RowAction`s (asking first where they destroy something); dialogs go in `children`.
 */
import { useId, type ReactNode } from "react";
import type { CombinedError } from "urql";
import type { Role } from "../gql/graphql";
import { ErrorNotice } from "./ErrorNotice";
import { RoleButton } from "./RoleButton";
import { HeadCells, RowCells, type Column } from "./columns";
import { TableScroll } from "./TableScroll";

/** A settings table's column (components/columns.tsx). */
export type SettingsColumn<Row> = Column<Row>;

export function SettingsTable<Row extends { id: string }>({
  title,
  columns,
  rows,
  empty,
  error,
  add,
  between,
  children,
}: {
  title: string;
  columns: readonly SettingsColumn<Row>[];
  rows: readonly Row[];
  /** What an empty table says; no row at all if left out. */
  empty?: string;
  error?: CombinedError;
  add: { label: string; needs: Role; onClick: () => void };
  between?: ReactNode;
  children?: ReactNode;
}) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      <TableScroll>
        <table aria-label={title} className="stacked">
          <thead>
            <tr>
              <HeadCells columns={columns} />
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 && empty && (
              <tr>
                <td colSpan={columns.length} className="muted">
                  {empty}
                </td>
              </tr>
            )}
            {rows.map((row) => (
              <tr key={row.id}>
                <RowCells columns={columns} row={row} />
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      {between}
      {error && <ErrorNotice error={error} />}
      <RoleButton needs={add.needs} onClick={add.onClick}>
        {add.label}
      </RoleButton>
      {children}
    </section>
  );
}
