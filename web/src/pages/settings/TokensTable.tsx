/**
 * `table` "API tokens": "Create token" → `dialog` "Create token", whose answer shows the secret
 * this once with a "Copy" button; "Revoke" per live token (ADMIN).
 */
import { useId, useState, type FormEvent } from "react";
import { useMutation } from "urql";
import { useQuery } from "../../lib/query";
import { Ago } from "../../components/Ago";
import { Dialog } from "../../components/Dialog";
import { ErrorNotice } from "../../components/ErrorNotice";
import { FieldError } from "../../components/FieldError";
import { RowAction } from "../../components/RowAction";
import { SettingsTable, type SettingsColumn } from "../../components/SettingsTable";
import type { TokensQuery as TokensData } from "../../gql/graphql";
import { roleWord } from "../../lib/roles";
import { useSession } from "../../lib/session";
import { CreateToken, MembersQuery, RevokeToken, TokensQuery } from "./settingsDocuments";

type Token = TokensData["workspace"]["tokens"]["edges"][number]["node"];

export function TokensTable() {
  const session = useSession();
  const [{ data, error }, refetch] = useQuery({ query: TokensQuery });
  const [{ data: members }] = useQuery({ query: MembersQuery });
  const [creating, setCreating] = useState(false);
  const [, revoke] = useMutation(RevokeToken);
  const reload = () => refetch({ requestPolicy: "network-only" });
  const memberName = new Map(
    (members?.members.edges ?? []).map((e) => [e.node.id, e.node.name] as const),
  );
  const columns: SettingsColumn<Token>[] = [
    { name: "Name", cell: (t) => t.name },
    { name: "Starts with", cell: (t) => <code>{t.prefix}…</code> },
    { name: "Member", cell: (t) => memberName.get(t.memberId) ?? "—" },
    { name: "Created", cell: (t) => <Ago iso={t.createdAt} /> },
    {
      name: "State",
      cell: (t) =>
        t.revokedAt ? (
          <>
            Revoked <Ago iso={t.revokedAt} />
          </>
        ) : (
          <RowAction
            needs="ADMIN"
            label="Revoke"
            run={() => revoke({ id: t.id })}
            onDone={reload}
            ask={{
              title: `Revoke the token ${t.name}?`,
              words: "Whatever uses it is refused from now on. A revoked token cannot be restored.",
            }}
          />
        ),
    },
  ];
  return (
    <SettingsTable
      title="API tokens"
      columns={columns}
      rows={data?.workspace.tokens.edges.map((e) => e.node) ?? []}
      error={error}
      add={{ label: "Create token", needs: "ADMIN", onClick: () => setCreating(true) }}
    >
      {creating && (
        <CreateTokenDialog
          members={(members?.members.edges ?? []).map((e) => e.node)}
          myId={session.memberId}
          onClose={() => {
            setCreating(false);
            reload();
          }}
        />
      )}
    </SettingsTable>
  );
}

function CreateTokenDialog({
  members,
  myId,
  onClose,
}: {
  members: { id: string; name: string; role: Parameters<typeof roleWord>[0] }[];
  myId: string;
  onClose: () => void;
}) {
  const [name, setName] = useState("");
  const [memberId, setMemberId] = useState(myId);
  const [shown, setShown] = useState(false);
  const [copied, setCopied] = useState(false);
  const [{ fetching, error, data }, create] = useMutation(CreateToken);
  const nameError = name.trim() ? null : "Give the token a name, e.g. where it is used.";
  const ids = { name: useId(), nameError: useId() };
  const secret = data?.createToken.secret;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setShown(true);
    if (nameError) return;
    await create({ name: name.trim(), memberId });
  };
  const copy = async () => {
    if (!secret) return;
    await navigator.clipboard?.writeText(secret).catch(() => undefined);
    setCopied(true);
  };
  return (
    <Dialog title="Create token" onClose={onClose}>
      {secret ? (
        <>
          <p>
            The token, shown this once: copy it now. shipwise keeps only its hash and cannot show
            it again.
          </p>
          <input
            className="secret"
            type="text"
            readOnly
            aria-label="New token"
            value={secret}
            onFocus={(e) => e.currentTarget.select()}
          />
          <div className="row">
            <button type="button" onClick={() => void copy()}>
              Copy
            </button>
            {copied && <span role="status">Copied.</span>}
          </div>
        </>
      ) : (
        <form noValidate onSubmit={(e) => void submit(e)}>
          <div className="field">
            <label htmlFor={ids.name}>Token name</label>
            <input
              id={ids.name}
              type="text"
              value={name}
              aria-invalid={shown && nameError ? true : undefined}
              aria-describedby={shown && nameError ? ids.nameError : undefined}
              onChange={(e) => setName(e.target.value)}
            />
            <FieldError id={ids.nameError} message={shown ? nameError : null} />
          </div>
          <label className="field">
            For member
            <select value={memberId} onChange={(e) => setMemberId(e.target.value)}>
              {members.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.name} ({roleWord(m.role)})
                </option>
              ))}
            </select>
          </label>
          <div className="row">
            <button type="submit" className="primary" disabled={fetching}>
              Create
            </button>
          </div>
          {error && <ErrorNotice error={error} />}
        </form>
      )}
    </Dialog>
  );
}
