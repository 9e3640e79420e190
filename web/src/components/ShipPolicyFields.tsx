/**
 * `group` "Ship policy" (docs/decision.md): quality margin, alpha, guardrails (a metric and its
 * largest allowed increase: percent for a ratio, points for failed or missing trials) and the
 * required gain. One component for the New comparison form and the workspace's default policy
 * in /settings; what is wrong shows at the field, in words.
 */
import { useId, type ReactNode } from "react";
import type { GuardrailMetric, RequiredGain } from "../gql/graphql";
import {
  GAINS,
  GUARDRAIL_METRICS,
  MAX_GUARDRAILS,
  addGuardrail,
  inPoints,
  type PolicyDraft,
  type PolicyField,
  type PolicyProblems,
} from "../lib/shipPolicyDraft";
import { FieldError } from "./FieldError";

export function ShipPolicyFields({
  value,
  onChange,
  problems,
  disabled = false,
  describedBy,
  children,
}: {
  value: PolicyDraft;
  onChange: (next: PolicyDraft) => void;
  problems: PolicyProblems;
  disabled?: boolean;
  /** Why the group is disabled (the role it needs). */
  describedBy?: string;
  /** Words shown under the legend. */
  children?: ReactNode;
}) {
  const base = useId();
  const errorId = (field: PolicyField) => `${base}-${field.replace(".", "-")}`;
  const invalid = (field: PolicyField) =>
    problems[field] ? { "aria-invalid": true as const, "aria-describedby": errorId(field) } : {};
  const setGuardrail = (index: number, change: Partial<PolicyDraft["guardrails"][number]>) =>
    onChange({
      ...value,
      guardrails: value.guardrails.map((g, i) => (i === index ? { ...g, ...change } : g)),
    });
  return (
    <fieldset className="ship-policy" disabled={disabled} aria-describedby={describedBy}>
      <legend>Ship policy</legend>
      {children}
      <div className="row">
        <div className="field">
          <label className="field">
            Quality margin (points)
            <input
              type="number"
              min={0}
              max={100}
              step="any"
              value={value.qualityMarginPoints}
              {...invalid("qualityMarginPoints")}
              onChange={(e) => onChange({ ...value, qualityMarginPoints: e.target.value })}
            />
          </label>
          <FieldError id={errorId("qualityMarginPoints")} message={problems.qualityMarginPoints ?? null} />
        </div>
        <div className="field">
          <label className="field">
            Alpha
            <input
              type="number"
              min={0}
              max={0.5}
              step="any"
              value={value.alpha}
              {...invalid("alpha")}
              onChange={(e) => onChange({ ...value, alpha: e.target.value })}
            />
          </label>
          <FieldError id={errorId("alpha")} message={problems.alpha ?? null} />
        </div>
        <div className="field">
          <label className="field">
            Required gain
            <select
              value={value.requireGain}
              {...invalid("requireGain")}
              onChange={(e) => onChange({ ...value, requireGain: e.target.value as RequiredGain })}
            >
              {GAINS.map(([gain, words]) => (
                <option key={gain} value={gain}>
                  {words}
                </option>
              ))}
            </select>
          </label>
          <FieldError id={errorId("requireGain")} message={problems.requireGain ?? null} />
        </div>
      </div>
      <p className="muted">
        The candidate ships when it is at most the margin worse than every baseline and every
        guardrail holds, each at this alpha.
      </p>
      {value.guardrails.map((g, index) => {
        const field: PolicyField = `guardrails.${index}`;
        return (
          <fieldset key={g.key} className="guardrail">
            <legend>Guardrail {index + 1}</legend>
            <div className="row">
              <label className="field">
                Metric
                <select
                  value={g.metric}
                  onChange={(e) => setGuardrail(index, { metric: e.target.value as GuardrailMetric })}
                >
                  {GUARDRAIL_METRICS.map(([metric, words]) => (
                    <option key={metric} value={metric}>
                      {words}
                    </option>
                  ))}
                </select>
              </label>
              <div className="field">
                <label className="field">
                  {inPoints(g.metric) ? "Max increase (points)" : "Max increase (percent)"}
                  <input
                    type="number"
                    min={0}
                    step="any"
                    value={g.maxIncrease}
                    {...invalid(field)}
                    onChange={(e) => setGuardrail(index, { maxIncrease: e.target.value })}
                  />
                </label>
                <FieldError id={errorId(field)} message={problems[field] ?? null} />
              </div>
              <button
                type="button"
                onClick={() =>
                  onChange({ ...value, guardrails: value.guardrails.filter((x) => x.key !== g.key) })
                }
              >
                Remove guardrail
              </button>
            </div>
          </fieldset>
        );
      })}
      <FieldError id={errorId("guardrails")} message={problems.guardrails ?? null} />
      {value.guardrails.length < MAX_GUARDRAILS && (
        <div className="row">
          <button type="button" onClick={() => onChange(addGuardrail(value))}>
            Add guardrail
          </button>
        </div>
      )}
    </fieldset>
  );
}
