/**
 * `table` "Model connections": status in words with "Check" per row; "Add connection" →
 * `dialog` "Model connection" (kind, name, base URL, write-only key, prices, monthly cap,
 * max concurrency). ADMIN changes them.
 */
import { useState } from "react";
import { useMutation, useQuery } from "urql";
import { ErrorNotice } from "../../components/ErrorNotice";
import { RoleButton } from "../../components/RoleButton";
import { RowAction } from "../../components/RowAction";
import { dollars } from "../../lib/format";
import { connectionStatusWords, enumWords } from "../../lib/words";
import { ConnectionDialog } from "./ConnectionDialog";
import { CheckConnection, ConnectionsQuery } from "./settingsDocuments";
import { TableScroll } from "../../components/TableScroll";

export function ConnectionsTable() {
  const [{ data, error }, refetch] = useQuery({ query: ConnectionsQuery });
  const [adding, setAdding] = useState(false);
  const [, check] = useMutation(CheckConnection);
  const reload = () => refetch({ requestPolicy: "network-only" });
  const connections = data?.modelConnections.edges.map((e) => e.node) ?? [];
  return (
    <section aria-labelledby="connections-heading">
      <h2 id="connections-heading">Model connections</h2>
      <TableScroll>
        <table aria-label="Model connections">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Kind</th>
              <th scope="col">Status</th>
              <th scope="col">Prices per million tokens</th>
              <th scope="col">This month</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {connections.length === 0 && (
              <tr>
                <td colSpan={6} className="muted">
                  No model connections yet: add one to run comparisons.
                </td>
              </tr>
            )}
            {connections.map((c) => (
              <tr key={c.id}>
                <td>
                  {c.name}
                  {c.baseUrl && <div className="muted">{c.baseUrl}</div>}
                </td>
                <td>
                  {enumWords(c.kind)}
                  {c.hasApiKey && <div className="muted">Key stored</div>}
                </td>
                <td>{connectionStatusWords(c.status)}</td>
                <td>
                  {dollars(c.inputCentsPerMillionTokens)} in, {dollars(c.outputCentsPerMillionTokens)} out
                </td>
                <td>
                  {dollars(c.monthToDateSpentCents)}
                  {c.monthlyCapCents !== null && c.monthlyCapCents !== undefined
                    ? ` of ${dollars(c.monthlyCapCents)}`
                    : " (no cap)"}
                  <div className="muted">Up to {c.maxConcurrency} calls at once</div>
                </td>
                <td>
                  <RowAction
                    needs="ADMIN"
                    label="Check"
                    run={() => check({ id: c.id })}
                    onDone={reload}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      {error && <ErrorNotice error={error} />}
      <RoleButton needs="ADMIN" onClick={() => setAdding(true)}>
        Add connection
      </RoleButton>
      {adding && (
        <ConnectionDialog
          onClose={() => setAdding(false)}
          onAdded={() => {
            setAdding(false);
            reload();
          }}
        />
      )}
    </section>
  );
}
