/** Stub: built out in its own change. */
export function AuditPage() {
  return <h1>Audit log</h1>;
}
