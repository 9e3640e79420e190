/**
 * `/audit`: the `table` "Audit log", newest first, with its filters (action, actor, target)
 * applied by "Filter"; 50 events a page with "Load more".
 */
import { useId, useState, type FormEvent } from "react";
import { useQuery } from "../../lib/query";
import { graphql } from "../../gql";
import { AuditEvents, type AuditFilters } from "./AuditEvents";

const MembersQuery = graphql(`
  query AuditMembers {
    members(first: 100) {
      edges {
        node {
          id
          name
          role
        }
      }
    }
  }
`);

export function AuditPage() {
  const ids = { action: useId(), actor: useId(), target: useId() };
  const [{ data }] = useQuery({ query: MembersQuery });
  const members = data?.members.edges.map((e) => e.node) ?? [];
  const [action, setAction] = useState("");
  const [actor, setActor] = useState("");
  const [target, setTarget] = useState("");
  const [filters, setFilters] = useState<AuditFilters>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFilters({
      action: action.trim() || undefined,
      actorId: actor || undefined,
      targetId: target.trim() || undefined,
    });
  };
  return (
    <>
      <h1>Audit log</h1>
      <form onSubmit={submit} className="row audit-filters" aria-label="Filters">
        <div className="field">
          <label htmlFor={ids.action}>Action</label>
          <input
            id={ids.action}
            type="text"
            placeholder="e.g. report.sign_off"
            value={action}
            onChange={(e) => setAction(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={ids.actor}>Actor</label>
          <select id={ids.actor} value={actor} onChange={(e) => setActor(e.target.value)}>
            <option value="">Anyone</option>
            {members.map((m) => (
              <option key={m.id} value={m.id}>
                {m.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={ids.target}>Target id</label>
          <input
            id={ids.target}
            type="text"
            value={target}
            onChange={(e) => setTarget(e.target.value)}
          />
        </div>
        <button type="submit">Filter</button>
      </form>
      <AuditEvents
        key={JSON.stringify(filters)}
        filters={filters}
        names={new Map(members.map((m) => [m.id, m.name]))}
      />
    </>
  );
}
