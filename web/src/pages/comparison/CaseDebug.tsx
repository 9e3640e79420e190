import { useState } from "react";
import { useMutation } from "urql";
import { useQuery } from "../../lib/query";
import { Dialog } from "../../components/Dialog";
import { ErrorNotice } from "../../components/ErrorNotice";
import { Trajectories } from "../../components/Trajectories";
import { RoleButton } from "../../components/RoleButton";
import type { CaseFilter, ComparisonCaseDebugQuery } from "../../gql/graphql";
import { count, dollars } from "../../lib/format";
import { jsonText } from "../../lib/jsonText";
import { nameOf, type CohortName } from "./cohorts";
import { DiffText } from "./DiffText";
import { LabelTrialMutation } from "./judgeQueries";
import { CaseDebugQuery } from "./queries";
import { errorCodeWords } from "./stopWords";
import { enumWords } from "../../lib/words";

type Case = ComparisonCaseDebugQuery["comparison"]["cases"]["edges"][number]["node"];
type Trial = Case["cohorts"][number]["trials"][number];

/**
 * The case-debug dialog: the case's input and expected answer, then every cohort's trials
 * with their output, checks, latency, tokens, cost and error. "Diff" marks the words of each
 * baseline's output that the candidate's output (same trial) has not. "Trajectories" shows the
 * candidate's and the chosen baseline's trials side by side (`components/Trajectories.tsx`, as
 * the run diff does): each trial is one model call with the tool calls it asked for. Everything
 * here is untrusted text and renders as text.
 */
export function CaseDebug({
  id,
  filter,
  baseline,
  after,
  datasetItemId,
  cohorts,
  onClose,
  onPrevious,
  onNext,
}: {
  id: string;
  filter: CaseFilter;
  baseline: number;
  /** The cursor of the row before this case in its list: the case is the page after it. */
  after: string | null;
  datasetItemId: string;
  cohorts: readonly CohortName[];
  onClose: () => void;
  /** The row before or after in the list; null at either end. */
  onPrevious: (() => void) | null;
  onNext: (() => void) | null;
}) {
  const [{ data, error }, refetch] = useQuery({
    query: CaseDebugQuery,
    variables: { id, filter, baseline, after },
  });
  const [{ fetching: labelling, error: labelError }, labelTrial] = useMutation(LabelTrialMutation);
  const [diff, setDiff] = useState(false);
  const found = data?.comparison.cases.edges[0]?.node;
  const item = found && found.datasetItemId === datasetItemId ? found : null;
  const candidate = item?.cohorts.find((c) => c.cohortIndex === 0);
  const reference = (trial: Trial) =>
    candidate?.trials.find((t) => t.trialIndex === trial.trialIndex)?.output ?? "";
  return (
    <Dialog title={`Case ${datasetItemId}`} onClose={onClose} wide>
      <div className="row">
        <button type="button" disabled={!onPrevious} onClick={() => onPrevious?.()}>
          Previous case
        </button>
        <button type="button" disabled={!onNext} onClick={() => onNext?.()}>
          Next case
        </button>
      </div>
      {error && <ErrorNotice error={error} />}
      {labelError && <ErrorNotice error={labelError} />}
      {data && !item && <p>This case is no longer where it was in the list.</p>}
      {item && (
        <div className="case-debug">
          <h3>Input</h3>
          <pre className="text">{jsonText(item.input)}</pre>
          <h3>Expected</h3>
          <pre className="text">
            {item.expected === null || item.expected === undefined ? "—" : jsonText(item.expected)}
          </pre>
          <div className="row">
            <button type="button" role="switch" aria-checked={diff} onClick={() => setDiff(!diff)}>
              Diff
            </button>
            <span className="muted">
              {diff ? "Marking the words that differ from the candidate's output." : "Off"}
            </span>
          </div>
          <div className="case-cohorts">
          {item.cohorts.map((c) => {
            const name = nameOf(cohorts, c.cohortIndex);
            return (
              <section key={c.cohortIndex} aria-label={name} className="cohort-trials">
                <h3>{name}</h3>
                {c.trials.map((t) => (
                  <TrialView
                    key={t.trialIndex}
                    trial={t}
                    reference={diff && c.cohortIndex !== 0 ? reference(t) : null}
                    labelling={labelling}
                    onLabel={async (passed) => {
                      const result = await labelTrial({
                        trial: {
                          comparisonId: id,
                          cohortIndex: c.cohortIndex,
                          datasetItemId,
                          trialIndex: t.trialIndex,
                        },
                        passed,
                      });
                      if (!result.error) refetch({ requestPolicy: "network-only" });
                    }}
                  />
                ))}
              </section>
            );
          })}
          </div>
          <section aria-label="Trajectories" className="case-trajectories">
            <h3>
              Trajectories: {nameOf(cohorts, 0)} against {nameOf(cohorts, baseline)}
            </h3>
            <Trajectories trials={trialPairs(item, baseline)} />
          </section>
        </div>
      )}
    </Dialog>
  );
}

/** The candidate's (cohort 0) and the baseline's trials, paired by trial index. */
function trialPairs(item: Case, baseline: number) {
  const of = (cohort: number) => item.cohorts.find((c) => c.cohortIndex === cohort)?.trials ?? [];
  const candidate = of(0);
  const reference = of(baseline);
  const count = Math.max(candidate.length, reference.length);
  const at = (trials: readonly Trial[], index: number) =>
    trials.find((t) => t.trialIndex === index)?.trajectory ?? null;
  return Array.from({ length: count }, (_, i) => ({
    baseline: at(reference, i),
    candidate: at(candidate, i),
  }));
}

function TrialView({
  trial,
  reference,
  labelling,
  onLabel,
}: {
  trial: Trial;
  reference: string | null;
  labelling: boolean;
  onLabel: (passed: boolean) => Promise<void>;
}) {
  const outcome =
    trial.passed === null || trial.passed === undefined ? "No outcome" : trial.passed ? "Passed" : "Failed";
  return (
    <div className="trial">
      <p>
        <strong>Trial {trial.trialIndex + 1}</strong>: {outcome} · {count(trial.latencyMs)} ms ·{" "}
        {count(trial.inputTokens)} input and {count(trial.outputTokens)} output tokens ·{" "}
        {dollars(trial.costCents)}
      </p>
      {trial.errorCode && <p className="error">{errorCodeWords(trial.errorCode)}</p>}
      {trial.checks.length > 0 && (
        <ul className="checks">
          {trial.checks.map((check, i) => (
            <li key={i}>
              {enumWords(check.kind)}: {check.passed ? "passed" : "failed"} (score {check.score.toFixed(2)})
            </li>
          ))}
        </ul>
      )}
      <pre className="text">
        {trial.output === null || trial.output === undefined ? (
          "No output"
        ) : (
          <DiffText text={trial.output} reference={reference} />
        )}
      </pre>
      {trial.passed !== null && trial.passed !== undefined && (
        <div className="row" role="group" aria-label={`Label trial ${trial.trialIndex + 1}`}>
          <RoleButton needs="MEMBER" disabled={labelling} onClick={() => void onLabel(true)}>
            Label pass
          </RoleButton>
          <RoleButton needs="MEMBER" disabled={labelling} onClick={() => void onLabel(false)}>
            Label fail
          </RoleButton>
        </div>
      )}
      {trial.labels.length > 0 && (
        <ul className="labels" aria-label={`Labels of trial ${trial.trialIndex + 1}`}>
          {trial.labels.map((label) => (
            <li key={label.labeller.id}>
              {label.labeller.name}: {label.passed ? "pass" : "fail"}
              {label.note ? ` — ${label.note}` : ""}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
