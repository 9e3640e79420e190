import { useQuery } from "../../lib/query";
import { ErrorNotice } from "../../components/ErrorNotice";
import type { BindingRole } from "../../gql/graphql";
import { AssetVersionsQuery } from "./setupDocuments";
import { BINDING_ROLES, bindingRoleWord } from "../../lib/bindingRoles";
import { kindOfRole, type OverrideDraft } from "./setupDraft";

/** One override of a variant: a binding role and an asset version of that role's kind. */
export function OverrideRow({
  name,
  value,
  onChange,
  onRemove,
}: {
  name: string;
  value: OverrideDraft;
  onChange: (value: OverrideDraft) => void;
  onRemove: () => void;
}) {
  const role = value.role || null;
  const [{ data, error }] = useQuery({
    query: AssetVersionsQuery,
    variables: { kind: role ? kindOfRole(role) : "PROMPT_TEMPLATE" },
    pause: !role,
  });
  const assets = role ? (data?.assets.edges.map((e) => e.node) ?? []) : [];
  return (
    <div role="group" aria-label={name} className="row override">
      <label className="field">
        Role
        <select
          value={value.role}
          onChange={(e) =>
            onChange({ ...value, role: e.target.value as BindingRole | "", assetVersionId: "" })
          }
        >
          <option value="">Choose a role</option>
          {BINDING_ROLES.map((r) => (
            <option key={r} value={r}>
              {bindingRoleWord(r)}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        Asset version
        <select
          value={value.assetVersionId}
          disabled={!role}
          onChange={(e) => onChange({ ...value, assetVersionId: e.target.value })}
        >
          <option value="">{role ? "Choose a version" : "Choose a role first"}</option>
          {assets.map((asset) => (
            <optgroup key={asset.id} label={asset.builtIn ? `${asset.name} (built-in)` : asset.name}>
              {[...asset.versions].reverse().map((v) => (
                <option key={v.id} value={v.id}>
                  {asset.name} v{v.number}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
      </label>
      <button type="button" onClick={onRemove}>
        Remove override
      </button>
      {error && <ErrorNotice error={error} />}
    </div>
  );
}
