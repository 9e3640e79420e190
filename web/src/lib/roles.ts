import type { Role } from "../gql/graphql";

const ORDER: Role[] = ["VIEWER", "MEMBER", "ADMIN", "OWNER"];

/** Whether `role` may do what `needed` may (VIEWER < MEMBER < ADMIN < OWNER). */
export function atLeast(role: Role | undefined, needed: Role): boolean {
  if (!role) return false;
  return ORDER.indexOf(role) >= ORDER.indexOf(needed);
}

export function roleWord(role: Role): string {
  return role.charAt(0) + role.slice(1).toLowerCase();
}
