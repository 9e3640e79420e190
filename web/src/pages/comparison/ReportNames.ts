/** Names for the member ids the report API gives. */

export function memberNames(members: { id: string; name: string }[]) {
  const byId = new Map(members.map((m) => [m.id, m.name]));
  return (id: string | null | undefined): string => (id ? (byId.get(id) ?? id) : "—");
}
