/**
 * `/traces`: the `table` "Traces" (ingested OpenTelemetry traces, newest first) with its
 * filters applied by "Filter"; 50 a page with "Load more"; the count (`status`) polled every
 * 5 s; "New dataset from traces" samples the filtered traces. Inputs and outputs are
 * untrusted text.
 */
import { useEffect, useId, useState, type FormEvent } from "react";
import { Link } from "react-router";
import { useQuery } from "../../lib/query";
import { Ago } from "../../components/Ago";
import { PagedTable } from "../../components/PagedTable";
import { RoleButton } from "../../components/RoleButton";
import { graphql } from "../../gql";
import type { TraceFilter, TraceStatus } from "../../gql/graphql";
import { count, dollars } from "../../lib/format";
import { NewDatasetFromTracesDialog } from "./NewDatasetFromTracesDialog";

const PAGE = 50;
const COUNT_EVERY_MS = 5_000;

const TracesQuery = graphql(`
  query TracesPage($first: Int!, $after: String, $filter: TraceFilter) {
    traces(first: $first, after: $after, filter: $filter) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      edges {
        node {
          id
          startedAt
          service
          release
          input
          output
          stepCount
          inputTokens
          outputTokens
          costCents
          durationMs
          status
        }
      }
    }
  }
`);

const TraceCountQuery = graphql(`
  query TraceCount($filter: TraceFilter) {
    traces(first: 0, filter: $filter) {
      totalCount
    }
  }
`);

function TraceCount({ filter }: { filter: TraceFilter }) {
  const [{ data }, reexecute] = useQuery({ query: TraceCountQuery, variables: { filter } });
  useEffect(() => {
    const timer = window.setInterval(
      () => reexecute({ requestPolicy: "network-only" }),
      COUNT_EVERY_MS,
    );
    return () => window.clearInterval(timer);
  }, [reexecute]);
  const total = data?.traces.totalCount;
  return (
    <p role="status" aria-label="Trace count">
      {total === undefined ? "Counting…" : `${count(total)} traces`}
    </p>
  );
}

function short(text: string | null | undefined, length = 120): string {
  if (!text) return "—";
  return text.length > length ? `${text.slice(0, length)}…` : text;
}

export function TracesPage() {
  const ids = {
    service: useId(),
    release: useId(),
    model: useId(),
    status: useId(),
    search: useId(),
  };
  const [service, setService] = useState("");
  const [release, setRelease] = useState("");
  const [model, setModel] = useState("");
  const [status, setStatus] = useState("");
  const [search, setSearch] = useState("");
  const [filter, setFilter] = useState<TraceFilter>({});
  const [sampling, setSampling] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFilter({
      service: service.trim() || undefined,
      release: release.trim() || undefined,
      model: model.trim() || undefined,
      status: status ? (status as TraceStatus) : undefined,
      search: search.trim() || undefined,
    });
  };
  return (
    <>
      <h1>Traces</h1>
      <form onSubmit={submit} className="row audit-filters" aria-label="Filters">
        <div className="field">
          <label htmlFor={ids.search}>Search</label>
          <input id={ids.search} type="search" value={search}
            onChange={(e) => setSearch(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={ids.service}>Service</label>
          <input id={ids.service} type="text" value={service}
            onChange={(e) => setService(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={ids.release}>Release</label>
          <input id={ids.release} type="text" value={release}
            onChange={(e) => setRelease(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={ids.model}>Model</label>
          <input id={ids.model} type="text" value={model}
            onChange={(e) => setModel(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={ids.status}>Status</label>
          <select id={ids.status} value={status} onChange={(e) => setStatus(e.target.value)}>
            <option value="">Any</option>
            <option value={"OK"}>OK</option>
            <option value={"ERROR"}>Error</option>
          </select>
        </div>
        <button type="submit">Filter</button>
      </form>
      <div className="row">
        <TraceCount filter={filter} />
        <RoleButton needs="MEMBER" onClick={() => setSampling(true)}>
          New dataset from traces
        </RoleButton>
      </div>
      {sampling && (
        <NewDatasetFromTracesDialog filter={filter} onClose={() => setSampling(false)} />
      )}
      <PagedTable
        key={JSON.stringify(filter)}
        label="Traces"
        what="traces"
        head={
          <>
            <th scope="col">Time</th>
            <th scope="col">Service</th>
            <th scope="col">Release</th>
            <th scope="col">Input</th>
            <th scope="col">Output</th>
            <th scope="col">Steps</th>
            <th scope="col">Tokens</th>
            <th scope="col">Cost</th>
            <th scope="col">Duration</th>
            <th scope="col">Status</th>
          </>
        }
        query={TracesQuery}
        variables={{ filter }}
        pageSize={PAGE}
        select={(data) => data.traces}
        columns={10}
        empty="No traces match."
      >
        {({ node }) => (
          <tr key={node.id}>
            <td>
              <Link to={`/traces/${node.id}`}>
                <Ago iso={node.startedAt} />
              </Link>
            </td>
            <td>{node.service ?? "—"}</td>
            <td>{node.release ?? "—"}</td>
            <td className="text">{short(node.input)}</td>
            <td className="text">{short(node.output)}</td>
            <td>{node.stepCount}</td>
            <td>{count(node.inputTokens + node.outputTokens)}</td>
            <td>{dollars(node.costCents)}</td>
            <td>{`${Math.round(node.durationMs)} ms`}</td>
            <td>{node.status === "ERROR" ? "Error" : "OK"}</td>
          </tr>
        )}
      </PagedTable>
    </>
  );
}
