// The GraphQL-over-HTTP spec's audit (graphql-http's `auditServer`) against a live server.
//   node scripts/audit-server.mjs http://127.0.0.1:8000/graphql
// prints one JSON array: {id, name, status: "ok" | "notice" | "warn" | "error", reason?}
// per check, in the audit's order.
import { auditServer } from "graphql-http";

const url = process.argv[2];
if (!url) {
  console.error("usage: node scripts/audit-server.mjs URL");
  process.exit(2);
}
const results = await auditServer({ url });
const summary = results.map(({ id, name, status, reason }) =>
  reason === undefined ? { id, name, status } : { id, name, status, reason },
);
console.log(JSON.stringify(summary));
