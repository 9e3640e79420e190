import { useState } from "react";
import { Link, NavLink, Outlet } from "react-router";
import { useQuery } from "../lib/query";
import { graphql } from "../gql";
import { memberWords } from "../lib/roles";
import { SessionContext, type Session } from "../lib/session";
import { ErrorNotice } from "./ErrorNotice";

const MeQuery = graphql(`
  query Me {
    me {
      role
      member {
        id
        name
      }
      workspace {
        id
        name
        settings {
          allowSelfSignOff
        }
      }
    }
  }
`);

const LINKS = [
  ["/comparisons", "Comparisons"],
  ["/datasets", "Datasets"],
  ["/releases", "Releases"],
  ["/experiments", "Experiments"],
  ["/traces", "Traces"],
  ["/live", "Live"],
  ["/audit", "Audit log"],
  ["/prompts", "Prompts and models"],
  ["/playground", "Playground"],
  ["/settings", "Settings"],
] as const;

export function Layout({
  signOut,
  connectionLost,
}: {
  signOut: () => void;
  connectionLost: boolean;
}) {
  const [{ data, error }, reexecute] = useQuery({ query: MeQuery });
  const [menuOpen, setMenuOpen] = useState(false);

  const me = data?.me;
  const session: Session | null = me
    ? {
        role: me.role,
        memberId: me.member.id,
        memberName: me.member.name,
        workspaceName: me.workspace.name,
        allowSelfSignOff: me.workspace.settings.allowSelfSignOff,
        signOut,
        refresh: () => reexecute({ requestPolicy: "network-only" }),
      }
    : null;
  return (
    <>
      <header className="top">
        <Link className="brand" to="/comparisons">
          shipwise
        </Link>
        <nav aria-label="Main" className={menuOpen ? "open" : undefined}>
          <button
            type="button"
            className="menu"
            aria-expanded={menuOpen}
            aria-controls="main-links"
            onClick={() => setMenuOpen((open) => !open)}
          >
            Menu
          </button>
          <ul id="main-links">
            {LINKS.map(([to, label]) => (
              <li key={to}>
                <NavLink to={to} onClick={() => setMenuOpen(false)}>
                  {label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="who">
          {me && (
            <span>
              {me.workspace.name} · <span className="member">{memberWords(me.member.name, me.role)}</span>
            </span>
          )}
          <button type="button" className="link" onClick={signOut}>
            Sign out
          </button>
        </div>
      </header>
      {connectionLost && (
        <p role="status" className="banner warn">
          Connection lost — retrying
        </p>
      )}
      <main>
        {error && !me && <ErrorNotice error={error} />}
        {session && (
          <SessionContext.Provider value={session}>
            <Outlet />
          </SessionContext.Provider>
        )}
      </main>
    </>
  );
}
