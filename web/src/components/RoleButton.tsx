import { useId, type ButtonHTMLAttributes } from "react";
import type { Role } from "../gql/graphql";
import { atLeast, roleWord } from "../lib/roles";
import { useSession } from "../lib/session";

/** A button the caller's role may not use is disabled, described by the role it needs. */
export function RoleButton({
  needs,
  disabled,
  children,
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & { needs: Role }) {
  const { role } = useSession();
  const allowed = atLeast(role, needs);
  const id = useId();
  return (
    <>
      <button
        type="button"
        {...rest}
        disabled={disabled || !allowed}
        aria-describedby={allowed ? rest["aria-describedby"] : id}
      >
        {children}
      </button>
      {!allowed && (
        <span id={id} className="needs-role">
          Needs the {roleWord(needs)} role
        </span>
      )}
    </>
  );
}
