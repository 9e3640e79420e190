import type { Role } from "../gql/graphql";
import { roleWord } from "../lib/roles";

/** The words beside controls a role may not use: which role they need. */
export function NeedsRole({ id, needs }: { id: string; needs: Role }) {
  return (
    <p id={id} className="needs-role">
      Changing these needs the {roleWord(needs)} role
    </p>
  );
}
