// graphql-js's `getIntrospectionQuery()` with every option on, sent to a live server as
// schema-loading tools send it:
//   node scripts/introspect.mjs http://127.0.0.1:8000/graphql [token]
// prints one JSON object: {query, status, contentType, body} (the query sent, the answer).
import { getIntrospectionQuery } from "graphql";

const [url, token] = process.argv.slice(2);
if (!url) {
  console.error("usage: node scripts/introspect.mjs URL [TOKEN]");
  process.exit(2);
}
const query = getIntrospectionQuery({
  descriptions: true,
  specifiedByUrl: true,
  directiveIsRepeatable: true,
  schemaDescription: true,
  inputValueDeprecation: true,
  oneOf: true,
});
const headers = {
  "content-type": "application/json",
  accept: "application/graphql-response+json, application/json",
};
if (token) headers.authorization = `Bearer ${token}`;
const response = await fetch(url, { method: "POST", headers, body: JSON.stringify({ query }) });
const answer = {
  query,
  status: response.status,
  contentType: response.headers.get("content-type"),
  body: await response.json(),
};
console.log(JSON.stringify(answer));
