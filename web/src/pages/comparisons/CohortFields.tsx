import { OverrideRow } from "./OverrideRow";
import { addOverride, cohortGroupName, type CohortDraft } from "./setupDraft";

export interface ReleaseChoice {
  id: string;
  name: string;
}

/** One cohort of the comparison: a release, or a base release with overrides; its label. */
export function CohortFields({
  index,
  value,
  releases,
  autoFocus,
  onChange,
  onRemove,
}: {
  index: number;
  /** Just added: its release picker takes the focus. */
  autoFocus: boolean;
  value: CohortDraft;
  releases: readonly ReleaseChoice[];
  onChange: (value: CohortDraft) => void;
  onRemove: () => void;
}) {
  const variant = value.kind === "VARIANT";
  return (
    <fieldset className="cohort">
      <legend>{cohortGroupName(index)}</legend>
      <p className="muted">
        {variant ? "A variant: a base release with bindings swapped." : "A release, as it is."}
        {index === 0 ? " The candidate." : " A baseline."}
      </p>
      <div className="row">
        <label className="field">
          {variant ? "Base release" : "Release"}
          <select
            autoFocus={autoFocus}
            value={value.releaseId}
            onChange={(e) => onChange({ ...value, releaseId: e.target.value })}
          >
            <option value="">Choose a release</option>
            {releases.map((r) => (
              <option key={r.id} value={r.id}>
                {r.name}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          Label
          <input
            type="text"
            value={value.label}
            placeholder={variant ? "The base release and its overrides" : "The release's name"}
            onChange={(e) => onChange({ ...value, label: e.target.value })}
          />
        </label>
      </div>
      {variant && (
        <>
          {value.overrides.map((o, n) => (
            <OverrideRow
              key={o.key}
              name={`Override ${n + 1}`}
              value={o}
              onChange={(next) =>
                onChange({
                  ...value,
                  overrides: value.overrides.map((x) => (x.key === o.key ? next : x)),
                })
              }
              onRemove={() =>
                onChange({ ...value, overrides: value.overrides.filter((x) => x.key !== o.key) })
              }
            />
          ))}
          <button type="button" onClick={() => onChange(addOverride(value))}>
            Add override
          </button>{" "}
        </>
      )}
      <button type="button" onClick={onRemove}>
        Remove cohort
      </button>
    </fieldset>
  );
}
