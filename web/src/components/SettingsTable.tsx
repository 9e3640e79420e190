/**
 * The settings tables' one shell ("Model connections", "Members", "API tokens", "Webhooks"):
 * a section headed by its title, the table's read (`query`, its rows picked by `rows`), a
 * `table` of that name whose rows stack on a phone (label: value), the read's error in words,
 * what goes between the table and the add button (notes, a mutation's error), and the add
 * button for `add.needs` and up, which opens `add.dialog`. A row's own actions are
 * `RowAction`s (asking first where they destroy something) whose `onDone` is the `reload`
 * the columns are given; the dialog's `onAdded` closes it and reads the table again.
 */
import { useId, useState, type ComponentType, type ReactNode } from "react";
import type { DocumentInput } from "urql";
import type { Role } from "../gql/graphql";
import { useQuery } from "../lib/query";
import { ErrorNotice } from "./ErrorNotice";
import { RoleButton } from "./RoleButton";
import { HeadCells, RowCells, type Column } from "./columns";
import { TableScroll } from "./TableScroll";

/** A settings table's column (components/columns.tsx). */
export type SettingsColumn<Row> = Column<Row>;

/** The add dialog's props: `onClose` leaves the table as it is, `onAdded` reads it again. */
export interface AddDialogProps {
  onClose: () => void;
  onAdded: () => void;
}

export function SettingsTable<Data, Row extends { id: string }>({
  title,
  query,
  rows,
  columns,
  empty,
  add,
  between,
}: {
  title: string;
  /** The table's read (no variables). */
  query: DocumentInput<Data, Record<string, never>>;
  /** The connection of the read's answer whose nodes are the rows. */
  rows: (data: Data) => { edges: readonly { node: Row }[] };
  /** The columns, given `reload` (read the table again) for what a row's actions change. */
  columns: (reload: () => void) => readonly SettingsColumn<Row>[];
  /** What an empty table says; no row at all if left out. */
  empty?: string;
  add: { label: string; needs: Role; dialog: ComponentType<AddDialogProps> };
  between?: ReactNode;
}) {
  const headingId = useId();
  const [{ data, error }, refetch] = useQuery({ query });
  const [adding, setAdding] = useState(false);
  const reload = () => refetch({ requestPolicy: "network-only" });
  const shown = columns(reload);
  const nodes = data ? rows(data).edges.map((e) => e.node) : [];
  const added = () => {
    setAdding(false);
    reload();
  };
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      <TableScroll>
        <table aria-label={title} className="stacked">
          <thead>
            <tr>
              <HeadCells columns={shown} />
            </tr>
          </thead>
          <tbody>
            {nodes.length === 0 && empty && (
              <tr>
                <td colSpan={shown.length} className="muted">
                  {empty}
                </td>
              </tr>
            )}
            {nodes.map((row) => (
              <tr key={row.id}>
                <RowCells columns={shown} row={row} />
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      {between}
      {error && <ErrorNotice error={error} />}
      <RoleButton needs={add.needs} onClick={() => setAdding(true)}>
        {add.label}
      </RoleButton>
      {adding && <add.dialog onClose={() => setAdding(false)} onAdded={added} />}
    </section>
  );
}
