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

/**
 * Who is signed in, for the header: the member's name with their role ("Dana Reyes (Admin)"),
 * the role said once when the name is only the role ("owner" of `shipwise workspace create`
 * reads "Owner", never "owner · Owner").
 */
export function memberWords(name: string, role: Role): string {
  const word = roleWord(role);
  const trimmed = name.trim();
  if (!trimmed || trimmed.toLowerCase() === word.toLowerCase()) return word;
  if (trimmed.toLowerCase().split(/\s+/).includes(word.toLowerCase())) return trimmed;
  return `${trimmed} (${word})`;
}
