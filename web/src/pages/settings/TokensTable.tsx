/**
 * `table` "API tokens": "Create token" → `dialog` "Create token", whose answer shows the secret
 * this once with a "Copy" button; "Revoke" per live token (ADMIN).
 */
import { useState, type FormEvent } from "react";
import { useMutation } from "urql";
import { useQuery } from "../../lib/query";
import { Ago } from "../../components/Ago";
import { Dialog } from "../../components/Dialog";
import { RowAction } from "../../components/RowAction";
import {
  SettingsTable,
  type AddDialogProps,
  type SettingsColumn,
} from "../../components/SettingsTable";
import { TextField } from "../../components/TextField";
import { SubmitRow } from "../../components/SubmitRow";
import type { TokensQuery as TokensData } from "../../gql/graphql";
import { roleWord } from "../../lib/roles";
import { useSession } from "../../lib/session";
import { CreateToken, MembersQuery, RevokeToken, TokensQuery } from "./settingsDocuments";

type Token = TokensData["workspace"]["tokens"]["edges"][number]["node"];

export function TokensTable() {
  const [{ data: members }] = useQuery({ query: MembersQuery });
  const [, revoke] = useMutation(RevokeToken);
  const memberName = new Map(
    (members?.members.edges ?? []).map((e) => [e.node.id, e.node.name] as const),
  );
  const columns = (reload: () => void): SettingsColumn<Token>[] => [
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
      query={TokensQuery}
      rows={(data) => data.workspace.tokens}
      columns={columns}
      add={{ label: "Create token", needs: "ADMIN", dialog: CreateTokenDialog }}
    />
  );
}

/** Shows the new token's secret until it closes; closing it then reads the table again. */
function CreateTokenDialog({ onClose, onAdded }: AddDialogProps) {
  const session = useSession();
  const [{ data: memberList }] = useQuery({ query: MembersQuery });
  const members = (memberList?.members.edges ?? []).map((e) => e.node);
  const [name, setName] = useState("");
  const [memberId, setMemberId] = useState(session.memberId);
  const [shown, setShown] = useState(false);
  const [copied, setCopied] = useState(false);
  const [{ fetching, error, data }, create] = useMutation(CreateToken);
  const nameError = name.trim() ? null : "Give the token a name, e.g. where it is used.";
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
    <Dialog title="Create token" onClose={secret ? onAdded : onClose}>
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
          <TextField
            label="Token name"
            value={name}
            onChange={setName}
            error={shown ? nameError : null}
          />
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
          <SubmitRow label="Create" busy={fetching} error={error} />
        </form>
      )}
    </Dialog>
  );
}
