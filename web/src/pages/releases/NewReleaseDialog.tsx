/**
 * `dialog` "New release": a name and a `combobox` per role (prompt template and model config
 * required, rubric and tools optional), each offering the asset versions of the role's kind.
 */
import { useId, useState, type FormEvent } from "react";
import { useMutation } from "urql";
import { useQuery } from "../../lib/query";
import { Dialog } from "../../components/Dialog";
import { FieldError } from "../../components/FieldError";
import { SubmitRow } from "../../components/SubmitRow";
import type { ListActionProps } from "../../components/ListPage";
import type { BindingRole } from "../../gql/graphql";
import { bindingRoleWord } from "../../lib/bindingRoles";
import { messageAt } from "../../lib/fieldErrors";
import { kindOfRole } from "../comparisons/setupDraft";
import { AssetVersionsQuery } from "../comparisons/setupDocuments";
import { CreateRelease } from "../prompts/promptsDocuments";

const ROLES: { role: BindingRole; required: boolean }[] = [
  { role: "PROMPT_TEMPLATE", required: true },
  { role: "MODEL_CONFIG", required: true },
  { role: "RUBRIC", required: false },
  { role: "TOOLS", required: false },
];

/** Made, it reads the list again and closes. */
export function NewReleaseDialog({ onClose, onChanged }: ListActionProps) {
  const [name, setName] = useState("");
  const [bound, setBound] = useState<Partial<Record<BindingRole, string>>>({});
  const [shown, setShown] = useState(false);
  const [{ fetching, error }, create] = useMutation(CreateRelease);
  const nameId = useId();
  const errors: Record<string, string> = {};
  if (!name.trim()) errors.name = "Give the release a name, e.g. capitals-v2.";
  for (const { role, required } of ROLES)
    if (required && !bound[role]) errors[role] = `Choose a ${bindingRoleWord(role).toLowerCase()} version.`;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setShown(true);
    if (Object.keys(errors).length) return;
    const bindings = ROLES.flatMap(({ role }) =>
      bound[role] ? [{ role, assetVersionId: bound[role] }] : [],
    );
    const result = await create({ input: { name: name.trim(), bindings } });
    if (result.error) return;
    onChanged();
    onClose();
  };
  const nameError = (shown ? errors.name : null) ?? messageAt(error, "name", { name: "Name" });
  return (
    <Dialog title="New release" onClose={onClose}>
      <form noValidate onSubmit={(e) => void submit(e)} className="stack">
        <div className="field">
          <label htmlFor={nameId}>Release name</label>
          <input
            id={nameId}
            type="text"
            value={name}
            aria-invalid={nameError ? true : undefined}
            aria-describedby={nameError ? `${nameId}-e` : undefined}
            onChange={(e) => setName(e.target.value)}
          />
          <FieldError id={`${nameId}-e`} message={nameError} />
        </div>
        {ROLES.map(({ role, required }) => (
          <RoleSelect
            key={role}
            role={role}
            required={required}
            value={bound[role] ?? ""}
            error={shown ? (errors[role] ?? null) : null}
            onChange={(id) => setBound({ ...bound, [role]: id })}
          />
        ))}
        <SubmitRow label="Make release" busy={fetching} error={!nameError && error} />
      </form>
    </Dialog>
  );
}

function RoleSelect({
  role,
  required,
  value,
  error,
  onChange,
}: {
  role: BindingRole;
  required: boolean;
  value: string;
  error: string | null;
  onChange: (id: string) => void;
}) {
  const id = useId();
  const [{ data }] = useQuery({ query: AssetVersionsQuery, variables: { kind: kindOfRole(role) } });
  const assets = data?.assets.edges.map((e) => e.node) ?? [];
  return (
    <div className="field">
      <label htmlFor={id}>{bindingRoleWord(role)}</label>
      <select
        id={id}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-e` : undefined}
        onChange={(e) => onChange(e.target.value)}
      >
        <option value="">{required ? "Choose a version" : "None"}</option>
        {assets.map((a) =>
          a.versions.map((v) => (
            <option key={v.id} value={v.id}>
              {a.name} v{v.number}
              {a.builtIn ? " (built-in)" : ""}
            </option>
          )),
        )}
      </select>
      <FieldError id={`${id}-e`} message={error} />
    </div>
  );
}
