/**
 * `table` "Model connections": status in words with "Check" per row; "Add connection" →
 * `dialog` "Model connection" (kind, name, base URL, write-only key, prices, monthly cap,
 * max concurrency). ADMIN changes them.
 */
import { useMutation } from "urql";
import { RowAction } from "../../components/RowAction";
import { SettingsTable, type SettingsColumn } from "../../components/SettingsTable";
import type { ModelConnectionsQuery } from "../../gql/graphql";
import { dollars } from "../../lib/format";
import { connectionStatusWords, enumWords } from "../../lib/words";
import { ConnectionDialog } from "./ConnectionDialog";
import { CheckConnection, ConnectionsQuery } from "./settingsDocuments";

type Connection = ModelConnectionsQuery["modelConnections"]["edges"][number]["node"];

export function ConnectionsTable() {
  const [, check] = useMutation(CheckConnection);
  const columns = (reload: () => void): SettingsColumn<Connection>[] => [
    {
      name: "Name",
      cell: (c) => (
        <>
          {c.name}
          {c.baseUrl && <div className="muted url">{c.baseUrl}</div>}
        </>
      ),
    },
    {
      name: "Kind",
      cell: (c) => (
        <>
          {enumWords(c.kind)}
          {c.hasApiKey && <div className="muted">Key stored</div>}
        </>
      ),
    },
    { name: "Status", cell: (c) => connectionStatusWords(c.status, c.simulated) },
    {
      name: "Prices per million tokens",
      cell: (c) =>
        `${dollars(c.inputCentsPerMillionTokens)} in, ${dollars(c.outputCentsPerMillionTokens)} out`,
    },
    {
      name: "This month",
      cell: (c) => (
        <>
          {dollars(c.monthToDateSpentCents)}
          {c.monthlyCapCents !== null && c.monthlyCapCents !== undefined
            ? ` of ${dollars(c.monthlyCapCents)}`
            : " (no cap)"}
          <div className="muted">Up to {c.maxConcurrency} calls at once</div>
        </>
      ),
    },
    {
      name: "Actions",
      hiddenName: true,
      cell: (c) => (
        <RowAction needs="ADMIN" label="Check" run={() => check({ id: c.id })} onDone={reload} />
      ),
    },
  ];
  return (
    <SettingsTable
      title="Model connections"
      query={ConnectionsQuery}
      rows={(data) => data.modelConnections}
      columns={columns}
      empty="No model connections yet: add one to run comparisons."
      add={{ label: "Add connection", needs: "ADMIN", dialog: ConnectionDialog }}
    />
  );
}
