/**
 * Two trajectories side by side (docs/domain.md, "Trajectories in runs"): a `region` per side
 * ("Trajectory (baseline)", "Trajectory (candidate)"), steps aligned by tool name and order
 * (`lib/trajectoryAlign.ts`), a step on one side only, a differing tool or a model call asking
 * for different tools marked in words. Shared by the run diff
 * (`pages/experiments/RunDiffTrajectories.tsx`) and the comparison's case dialog
 * (`pages/comparison/CaseDebug.tsx`). Steps' texts (messages, arguments, results) are
 * untrusted: shown as text, never as markup.
 */
import { useState } from "react";
import { graphql } from "../gql";
import type { TrajectorySideStepFragment } from "../gql/graphql";
import { jsonText } from "../lib/jsonText";
import { MARK_WORDS, alignSteps, type AlignedRow, type RowMark } from "../lib/trajectoryAlign";
import "./Trajectories.css";

/** What a side shows of a step: select it with `...TrajectorySideStep` under `trajectory`. */
export const TrajectorySideStep = graphql(`
  fragment TrajectorySideStep on TrajectoryStep {
    kind
    name
    status
    model
    toolName
    arguments
    result
    durationMs
    outputMessages {
      role
      content
      toolCalls {
        name
        arguments
      }
    }
  }
`);

type Step = TrajectorySideStepFragment;

/** One trial's two trajectories; null for a side without one. */
export interface TrialTrajectories {
  baseline: readonly Step[] | null;
  candidate: readonly Step[] | null;
}

export function Trajectories({ trials }: { trials: readonly TrialTrajectories[] }) {
  const [trial, setTrial] = useState(0);
  const shown = trials.at(trial) ?? { baseline: null, candidate: null };
  const rows = alignSteps(shown.baseline ?? [], shown.candidate ?? []);
  const differences = rows.filter((r) => r.mark !== "SAME").length;
  return (
    <div className="trajectories">
      {trials.length > 1 && (
        <label>
          Trial{" "}
          <select value={trial} onChange={(e) => setTrial(Number(e.target.value))}>
            {trials.map((_, i) => (
              <option key={i} value={i}>
                {i + 1}
              </option>
            ))}
          </select>
        </label>
      )}
      <p>
        {shown.baseline === null && shown.candidate === null
          ? "Neither trial carries a trajectory."
          : differences === 0
            ? "The two trajectories take the same steps."
            : `${differences} ${differences === 1 ? "step differs" : "steps differ"}.`}
      </p>
      <div className="side-by-side">
        <Side label="Trajectory (baseline)" steps={shown.baseline} rows={rows} side="baseline" />
        <Side label="Trajectory (candidate)" steps={shown.candidate} rows={rows} side="candidate" />
      </div>
    </div>
  );
}

function Side({
  label,
  steps,
  rows,
  side,
}: {
  label: string;
  steps: readonly Step[] | null;
  rows: AlignedRow<Step>[];
  side: "baseline" | "candidate";
}) {
  return (
    <section role="region" aria-label={label} className="trajectory-side">
      <h3>{label}</h3>
      {steps === null ? (
        <p className="muted">No trajectory.</p>
      ) : (
        <ol aria-label="Steps" className="plain">
          {rows.map((row, i) => (
            <AlignedStep key={i} step={row[side]} mark={row.mark} />
          ))}
        </ol>
      )}
    </section>
  );
}

function AlignedStep({ step, mark }: { step: Step | null; mark: RowMark }) {
  const words = MARK_WORDS[mark];
  if (step === null) {
    return (
      <li className="step missing" aria-label={`no step (${words})`}>
        <span className="muted">— no step here ({words}) —</span>
      </li>
    );
  }
  const title = step.kind === "TOOL" ? `TOOL ${step.toolName ?? step.name}` : `${step.kind} ${step.name}`;
  return (
    <li className={mark === "SAME" ? "step" : "step differs"} aria-label={words ? `${title} (${words})` : title}>
      <div className="row">
        <strong>{step.kind}</strong> <span className="text">{step.toolName ?? step.name}</span>
        {step.status === "ERROR" && <span className="chip">error</span>}
        {words && <span className="chip">{words}</span>}
      </div>
      {step.arguments != null && (
        <>
          <div className="muted">Arguments</div>
          <pre className="text">{jsonText(step.arguments)}</pre>
        </>
      )}
      {step.result != null && (
        <>
          <div className="muted">Result</div>
          <pre className="text">{jsonText(step.result)}</pre>
        </>
      )}
      {step.outputMessages.map((m, i) => (
        <div key={i}>
          {m.content && <pre className="text">{m.content}</pre>}
          {m.toolCalls.map((call, j) => (
            <div key={j}>
              <span className="muted">asks for </span>
              <span className="text">{call.name}</span>
              <pre className="text">{jsonText(call.arguments)}</pre>
            </div>
          ))}
        </div>
      ))}
    </li>
  );
}
