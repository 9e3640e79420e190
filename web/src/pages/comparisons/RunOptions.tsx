import type { Split } from "../../gql/graphql";
import type { OfferedCheck, SetupDraft } from "./setupDraft";

/** Seed 002's words for each offered check. */
const CHECKS: readonly [OfferedCheck, string][] = [
  ["CONTAINS", "Contains the expected output"],
  ["EXACT_MATCH", "Matches the expected output"],
];

/** Budget cap, trials, split, checks and sample size. */
export function RunOptions({
  draft,
  onChange,
}: {
  draft: SetupDraft;
  onChange: (draft: SetupDraft) => void;
}) {
  const toggle = (kind: OfferedCheck, on: boolean) =>
    onChange({
      ...draft,
      checks: on ? [...draft.checks, kind] : draft.checks.filter((k) => k !== kind),
    });
  return (
    <>
      <div className="row">
        <label className="field">
          Trials per case
          <input
            type="number"
            min={1}
            max={10}
            step={1}
            value={draft.trialsPerCase}
            onChange={(e) => onChange({ ...draft, trialsPerCase: e.target.value })}
          />
        </label>
        <label className="field">
          Split
          <select
            value={draft.split}
            onChange={(e) => onChange({ ...draft, split: e.target.value as Split })}
          >
            <option value="DEV">Dev</option>
            <option value="HOLDOUT">Holdout</option>
          </select>
        </label>
        <label className="field">
          Sample size
          <input
            type="number"
            min={1}
            step={1}
            placeholder="Every case"
            value={draft.sampleSize}
            onChange={(e) => onChange({ ...draft, sampleSize: e.target.value })}
          />
        </label>
        <label className="field">
          Budget cap (cents)
          <input
            type="number"
            min={0}
            step="any"
            placeholder="No cap"
            value={draft.budgetCapCents}
            onChange={(e) => onChange({ ...draft, budgetCapCents: e.target.value })}
          />
        </label>
      </div>
      <fieldset>
        <legend>Checks</legend>
        <p className="muted">A trial passes when every chosen check passes.</p>
        {CHECKS.map(([kind, words]) => (
          <label key={kind} className="check">
            <input
              type="checkbox"
              checked={draft.checks.includes(kind)}
              onChange={(e) => toggle(kind, e.target.checked)}
            />{" "}
            {words}
          </label>
        ))}
      </fieldset>
    </>
  );
}
