import { useId } from "react";
import { FieldError } from "../../components/FieldError";
import type { Split } from "../../gql/graphql";
import { fieldProblems, type NumberField, type OfferedCheck, type SetupDraft } from "./setupDraft";

/** Seed 002's words for each offered check. */
const CHECKS: readonly [OfferedCheck, string][] = [
  ["CONTAINS", "Contains the expected output"],
  ["EXACT_MATCH", "Matches the expected output"],
];

/** Budget cap, trials, split, checks and sample size; what is wrong shows at the field. */
export function RunOptions({
  draft,
  onChange,
  serverProblems = {},
}: {
  draft: SetupDraft;
  onChange: (draft: SetupDraft) => void;
  /** The preview's VALIDATION_FAILED, in words, by the field it names. */
  serverProblems?: Partial<Record<NumberField, string>>;
}) {
  const base = useId();
  const problems = { ...serverProblems, ...fieldProblems(draft) };
  const invalid = (field: NumberField) =>
    problems[field]
      ? { "aria-invalid": true as const, "aria-describedby": `${base}-${field}` }
      : {};
  const toggle = (kind: OfferedCheck, on: boolean) =>
    onChange({
      ...draft,
      checks: on ? [...draft.checks, kind] : draft.checks.filter((k) => k !== kind),
    });
  return (
    <>
      <div className="row">
        <div className="field">
          <label className="field">
            Trials per case
            <input
              type="number"
              min={1}
              max={10}
              step={1}
              value={draft.trialsPerCase}
              {...invalid("trialsPerCase")}
              onChange={(e) => onChange({ ...draft, trialsPerCase: e.target.value })}
            />
          </label>
          <FieldError id={`${base}-trialsPerCase`} message={problems.trialsPerCase ?? null} />
        </div>
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
        <div className="field">
          <label className="field">
            Sample size
            <input
              type="number"
              min={1}
              step={1}
              placeholder="Every case"
              value={draft.sampleSize}
              {...invalid("sampleSize")}
              onChange={(e) => onChange({ ...draft, sampleSize: e.target.value })}
            />
          </label>
          <FieldError id={`${base}-sampleSize`} message={problems.sampleSize ?? null} />
        </div>
        <div className="field">
          <label className="field">
            Budget cap (cents)
            <input
              type="number"
              min={0}
              step="any"
              placeholder="No cap"
              value={draft.budgetCapCents}
              {...invalid("budgetCapCents")}
              onChange={(e) => onChange({ ...draft, budgetCapCents: e.target.value })}
            />
          </label>
          <FieldError id={`${base}-budgetCapCents`} message={problems.budgetCapCents ?? null} />
        </div>
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
