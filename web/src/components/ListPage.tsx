/**
 * The list pages' one shell (`/datasets`, `/releases`, `/experiments`): the heading with the
 * page's action (a button for `action.needs` and up), what the action opens (`children`), and
 * the paged `table` named by the title, its columns declared once (components/columns.tsx),
 * each row stacked as label: value on a phone.
 */
import type { ReactNode } from "react";
import type { AnyVariables, DocumentInput } from "urql";
import type { Role } from "../gql/graphql";
import { HeadCells, RowCells, type Column } from "./columns";
import { PagedTable, type Page, type PageVariables } from "./PagedTable";
import { RoleButton } from "./RoleButton";

export function ListPage<
  Data,
  Variables extends AnyVariables & PageVariables,
  Node extends { id: string },
>({
  title,
  what,
  action,
  children,
  columns,
  query,
  variables,
  select,
  empty,
  revision,
  pageSize = 50,
}: {
  title: string;
  /** What the rows are, for "N earlier … not shown". */
  what: string;
  action?: { label: string; needs: Role; onClick: () => void };
  children?: ReactNode;
  columns: readonly Column<Node>[];
  query: DocumentInput<Data, Variables>;
  variables: Omit<Variables, "first" | "after">;
  select: (data: Data) => Page<{ node: Node }> | undefined;
  empty: string;
  /** Changed after the action made something: the list reads itself again. */
  revision?: number;
  pageSize?: number;
}) {
  return (
    <>
      <div className="row page-head">
        <h1>{title}</h1>
        {action && (
          <RoleButton needs={action.needs} className="primary" onClick={action.onClick}>
            {action.label}
          </RoleButton>
        )}
      </div>
      {children}
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
