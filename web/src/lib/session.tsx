/** The signed-in session: the token's urql client and who the token belongs to. */
import { createContext, useContext } from "react";
import type { Role } from "../gql/graphql";

export interface Session {
  role: Role;
  memberId: string;
  memberName: string;
  workspaceName: string;
  allowSelfSignOff: boolean;
  signOut: () => void;
  /** Ask the server again who the token belongs to (after a settings change). */
  refresh: () => void;
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error("useSession outside a signed-in page");
  return session;
}
