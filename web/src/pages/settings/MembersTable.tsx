/**
 * `table` "Members": a `combobox` "Role" and "Remove" per row, "Add member" → `dialog` "Add
 * member". ADMIN manages members; changing an admin or owner, or making one, needs OWNER.
 */
import { useId, useState, type FormEvent } from "react";
import { useMutation } from "urql";
import { Ago } from "../../components/Ago";
import { Dialog } from "../../components/Dialog";
import { ErrorNotice } from "../../components/ErrorNotice";
import { RowAction } from "../../components/RowAction";
import {
  SettingsTable,
  type AddDialogProps,
  type SettingsColumn,
} from "../../components/SettingsTable";
import { TextField } from "../../components/TextField";
import { SubmitRow } from "../../components/SubmitRow";
import type { MembersQuery as MembersData, Role } from "../../gql/graphql";
import { atLeast, roleWord } from "../../lib/roles";
import { useSession } from "../../lib/session";
import { AddMember, MembersQuery, RemoveMember, SetMemberRole } from "./settingsDocuments";

const ROLES: Role[] = ["VIEWER", "MEMBER", "ADMIN", "OWNER"];

type Member = MembersData["members"]["edges"][number]["node"];

/** The lowest role that may change a member of role `role`. */
function neededFor(role: Role): Role {
  return atLeast(role, "ADMIN") ? "OWNER" : "ADMIN";
}

export function MembersTable() {
  const session = useSession();
  const [setRoleState, setRole] = useMutation(SetMemberRole);
  const [, remove] = useMutation(RemoveMember);
  const noteId = useId();
  const allowed = (m: Member) => atLeast(session.role, neededFor(m.role)) && m.id !== session.memberId;
  const columns = (reload: () => void): SettingsColumn<Member>[] => [
    {
      name: "Name",
      cell: (m) => (
        <>
          {m.name}
          {m.id === session.memberId && <span className="muted"> (you)</span>}
          {m.email && <div className="muted url">{m.email}</div>}
        </>
      ),
    },
    {
      name: "Role",
      cell: (m) => (
        <select
          aria-label="Role"
          value={m.role}
          disabled={!allowed(m) || setRoleState.fetching}
          aria-describedby={allowed(m) ? undefined : noteId}
          onChange={(e) =>
            void setRole({ memberId: m.id, role: e.target.value as Role }).then(reload)
          }
        >
          {ROLES.map((r) => (
            <option key={r} value={r} disabled={!atLeast(session.role, neededFor(r))}>
              {roleWord(r)}
            </option>
          ))}
        </select>
      ),
    },
    { name: "Added", cell: (m) => <Ago iso={m.createdAt} /> },
    {
      name: "Actions",
      hiddenName: true,
      cell: (m) => (
        <RowAction
          needs={neededFor(m.role)}
          label="Remove"
          disabled={m.id === session.memberId}
          run={() => remove({ memberId: m.id })}
          onDone={reload}
          ask={{
            title: `Remove ${m.name}?`,
            words: "They lose this workspace at once, and their tokens stop working.",
          }}
        />
      ),
    },
  ];
  return (
    <SettingsTable
      title="Members"
      query={MembersQuery}
      rows={(data) => data.members}
      columns={columns}
      add={{ label: "Add member", needs: "ADMIN", dialog: AddMemberDialog }}
      between={
        <>
          <p id={noteId} className="muted">
            Admins change viewers and members; changing an admin or an owner needs the Owner role.
            You cannot change your own role.
          </p>
          {setRoleState.error && <ErrorNotice error={setRoleState.error} />}
        </>
      }
    />
  );
}

function AddMemberDialog({ onClose, onAdded }: AddDialogProps) {
  const session = useSession();
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("MEMBER");
  const [shown, setShown] = useState(false);
  const [{ fetching, error }, add] = useMutation(AddMember);
  const nameError = name.trim() ? null : "Give the member a name.";
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setShown(true);
    if (nameError) return;
    const result = await add({ name: name.trim(), role, email: email.trim() || null });
    if (!result.error) onAdded();
  };
  return (
    <Dialog title="Add member" onClose={onClose}>
      <form noValidate onSubmit={(e) => void submit(e)}>
        <TextField label="Name" value={name} onChange={setName} error={shown ? nameError : null} />
        <label className="field">
          Email
          <input type="email" value={email} placeholder="Optional" onChange={(e) => setEmail(e.target.value)} />
        </label>
        <label className="field">
          Role
          <select value={role} onChange={(e) => setRole(e.target.value as Role)}>
            {ROLES.map((r) => (
              <option key={r} value={r} disabled={!atLeast(session.role, neededFor(r))}>
                {roleWord(r)}
              </option>
            ))}
          </select>
        </label>
        <SubmitRow label="Add" busy={fetching} error={error} />
      </form>
    </Dialog>
  );
}
