/**
 * The list pages' one shell (`/datasets`, `/releases`, `/experiments`): the heading with the
 * page's action (a button for `action.needs` and up) and the dialog it opens, and the paged
 * `table` named by the title, its columns declared once (components/columns.tsx), each row
 * stacked as label: value on a phone. What the dialog changes, the list reads again.
 */
import { useState, type ComponentType } from "react";
import type { AnyVariables, DocumentInput } from "urql";
import type { Role } from "../gql/graphql";
import { HeadCells, RowCells, type Column } from "./columns";
import { PagedTable, type Page, type PageVariables } from "./PagedTable";
import { RoleButton } from "./RoleButton";

/** The action's dialog's props: `onChanged` reads the list again, `onClose` closes it. */
export interface ListActionProps {
  onClose: () => void;
  onChanged: () => void;
}

export function ListPage<
  Data,
  Variables extends AnyVariables & PageVariables,
  Node extends { id: string },
>({
  title,
  what,
  action,
  columns,
  query,
  variables,
  select,
  empty,
  pageSize = 50,
}: {
  title: string;
  /** What the rows are, for "N earlier … not shown". */
  what: string;
  action?: { label: string; needs: Role; dialog: ComponentType<ListActionProps> };
  columns: readonly Column<Node>[];
  query: DocumentInput<Data, Variables>;
  variables: Omit<Variables, "first" | "after">;
  select: (data: Data) => Page<{ node: Node }> | undefined;
  empty: string;
  pageSize?: number;
}) {
  const [open, setOpen] = useState(false);
  const [revision, setRevision] = useState(0);
  return (
    <>
      <div className="row page-head">
        <h1>{title}</h1>
        {action && (
          <RoleButton needs={action.needs} className="primary" onClick={() => setOpen(true)}>
            {action.label}
          </RoleButton>
        )}
      </div>
      {open && action && (
        <action.dialog onClose={() => setOpen(false)} onChanged={() => setRevision((r) => r + 1)} />
      )}
      <PagedTable
        label={title}
        what={what}
        className="stacked"
        head={<HeadCells columns={columns} />}
        query={query}
        variables={variables}
        pageSize={pageSize}
        select={select}
        columns={columns.length}
        revision={revision}
        empty={empty}
      >
        {({ node }) => (
          <tr key={node.id}>
            <RowCells columns={columns} row={node} />
          </tr>
        )}
      </PagedTable>
    </>
  );
}
