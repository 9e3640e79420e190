import type { Role } from "../gql/graphql";
import { atLeast } from "../lib/roles";
import { useSession } from "../lib/session";

/** Whether the signed-in role may use a control that needs `needs`. */
export function useAllowed(needs: Role): boolean {
  return atLeast(useSession().role, needs);
}
