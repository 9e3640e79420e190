/**
 * A run diff case's two trajectories side by side (docs/domain.md, "Trajectories in runs"):
 * a `region` per side ("Trajectory (baseline)", "Trajectory (candidate)"), steps aligned by
 * tool name and order, a step on one side only or a differing tool marked in words. Steps'
 * texts (messages, arguments, results) are untrusted: shown as text, never as markup.
 */
import { useState } from "react";
import { useQuery } from "../../lib/query";
import { ErrorNotice } from "../../components/ErrorNotice";
import { graphql } from "../../gql";
import type { RunDiffTrajectoriesQuery } from "../../gql/graphql";
import { jsonText } from "../../lib/jsonText";
import { MARK_WORDS, alignSteps, type AlignedRow, type RowMark } from "./trajectoryAlign";

const TrajectoriesQuery = graphql(`
  query RunDiffTrajectories(
    $candidate: ID!
    $baseline: ID!
    $position: Int!
    $baselinePosition: Int!
  ) {
    candidateRun: run(id: $candidate) {
      id
      item(position: $position) {
        position
        trials {
          traceId
          trajectory {
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
        }
      }
    }
    baselineRun: run(id: $baseline) {
      id
      item(position: $baselinePosition) {
        position
        trials {
          traceId
          trajectory {
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
        }
      }
    }
  }
`);

type Run = NonNullable<RunDiffTrajectoriesQuery["candidateRun"]>;
type Trial = NonNullable<Run["item"]>["trials"][number];
type Step = NonNullable<Trial["trajectory"]>[number];

interface Props {
  candidate: string;
  baseline: string;
  /** The case's candidate position; null for a case only the baseline has. */
  position: number | null;
  baselinePosition: number | null;
}

export function RunDiffTrajectories(props: Props) {
  const [trial, setTrial] = useState(0);
  const [{ data, error, fetching }] = useQuery({
    query: TrajectoriesQuery,
    variables: {
      candidate: props.candidate,
      baseline: props.baseline,
      position: props.position ?? -1,
      baselinePosition: props.baselinePosition ?? -1,
    },
  });
  if (error && !data) return <ErrorNotice error={error} />;
  if (!data) return fetching ? <p className="muted">Loading the trajectories…</p> : null;
  const baselineTrials = data.baselineRun?.item?.trials ?? [];
  const candidateTrials = data.candidateRun?.item?.trials ?? [];
  const trials = Math.max(baselineTrials.length, candidateTrials.length);
  const baseline = baselineTrials.at(trial)?.trajectory ?? null;
  const candidate = candidateTrials.at(trial)?.trajectory ?? null;
  const rows = alignSteps(baseline ?? [], candidate ?? []);
  const differences = rows.filter((r) => r.mark !== "SAME").length;
  return (
    <div className="trajectories">
      {trials > 1 && (
        <label>
          Trial{" "}
          <select value={trial} onChange={(e) => setTrial(Number(e.target.value))}>
            {Array.from({ length: trials }, (_, i) => (
              <option key={i} value={i}>
                {i + 1}
              </option>
            ))}
          </select>
        </label>
      )}
      <p>
        {baseline === null && candidate === null
          ? "Neither trial carries a trajectory."
          : differences === 0
            ? "The two trajectories take the same steps."
            : `${differences} ${differences === 1 ? "step differs" : "steps differ"}.`}
      </p>
      <div className="side-by-side">
        <Side label="Trajectory (baseline)" steps={baseline} rows={rows} side="baseline" />
        <Side label="Trajectory (candidate)" steps={candidate} rows={rows} side="candidate" />
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
