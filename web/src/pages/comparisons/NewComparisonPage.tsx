import { useId, useState } from "react";
import { Link, useLocation, useNavigate } from "react-router";
import { useMutation, type CombinedError } from "urql";
import { useQuery } from "../../lib/query";
import { ErrorNotice } from "../../components/ErrorNotice";
import { RoleButton } from "../../components/RoleButton";
import type { CohortKind } from "../../gql/graphql";
import { CohortFields } from "./CohortFields";
import { DatasetFields } from "./DatasetFields";
import { PreviewPanel } from "./PreviewPanel";
import { RunOptions } from "./RunOptions";
import { runReason } from "./runReason";
import { StartMutation } from "../comparison/queries";
import { CreateComparisonMutation, SetupChoicesQuery } from "./setupDocuments";
import { draftFromLink, FIRST_DATASET } from "../prompts/compareLink";
import { addCohort, missingChoice, toInput, type NumberField, type SetupDraft } from "./setupDraft";
import { messageAt } from "../../lib/fieldErrors";
import { ShipPolicyFields } from "../../components/ShipPolicyFields";
import { policyDraft, policyProblems, serverPolicyProblems } from "../../lib/shipPolicyDraft";
import { usePreview } from "./usePreview";
import "./comparisons.css";

const FIELD_LABELS: Record<NumberField, string> = {
  trialsPerCase: "Trials per case",
  sampleSize: "Sample size",
  budgetCapCents: "Budget cap",
};

/** The preview's VALIDATION_FAILED on one of the number fields, in words, at that field. */
function placedProblems(error: CombinedError | undefined): Partial<Record<NumberField, string>> {
  const problems: Partial<Record<NumberField, string>> = {};
  for (const field of Object.keys(FIELD_LABELS) as NumberField[]) {
    const message = messageAt(error, field, { ...FIELD_LABELS, size: "Sample size" });
    if (message) problems[field] = message;
  }
  const sample = messageAt(error, "sample", { size: "Sample size", sample: "Sample size" });
  if (sample) problems.sampleSize = sample;
  return problems;
}

/** `/comparisons/new`: seed 000's setup panel with a live preview; Run creates and starts. */
export function NewComparisonPage() {
  const navigate = useNavigate();
  const location = useLocation();
  // "Compare on a dataset" (a release, a prompt version, two versions) arrives prefilled.
  const [fromLink] = useState<SetupDraft>(() => draftFromLink(location.search));
  const [typed, setDraft] = useState<SetupDraft>(fromLink);
  const [{ data: choices, error: choicesError }] = useQuery({ query: SetupChoicesQuery });
  const releases = choices?.releases.edges.map((e) => e.node) ?? [];
  const datasets = choices?.datasets.edges.map((e) => e.node) ?? [];
  // The ship policy starts as the prompt's gate policy the link names, else as the workspace's
  // default once read, until the person changes it.
  const defaultPolicy = choices?.workspace.settings.defaultShipPolicy;
  const withPolicy: SetupDraft =
    typed.shipPolicy || !defaultPolicy ? typed : { ...typed, shipPolicy: policyDraft(defaultPolicy) };
  // A prompt's link names its gate dataset (or the first one): its latest sealed version, once read.
  const linked =
    typed.datasetId && !typed.datasetVersionId
      ? typed.datasetId === FIRST_DATASET
        ? datasets.find((d) => d.latestVersion)
        : datasets.find((d) => d.id === typed.datasetId)
      : undefined;
  const draft: SetupDraft = linked?.latestVersion
    ? { ...withPolicy, datasetId: linked.id, datasetVersionId: linked.latestVersion.id }
    : withPolicy;

  const { input, preview, error: previewError, current } = usePreview(draft);

  const [create, createComparison] = useMutation(CreateComparisonMutation);
  const [start, startComparison] = useMutation(StartMutation);
  const [runError, setRunError] = useState<CombinedError | null>(null);
  /** A comparison made whose start was refused: it waits in SETUP on its page. */
  const [unstarted, setUnstarted] = useState<string | null>(null);
  const busy = create.fetching || start.fetching;

  const serverProblems = placedProblems(previewError);
  const policyServerProblems = {
    ...serverPolicyProblems(previewError, "shipPolicy"),
    ...serverPolicyProblems(runError, "shipPolicy"),
  };
  const placed =
    Object.keys(serverProblems).length > 0 || Object.keys(policyServerProblems).length > 0;
  const reason = placed
    ? "Fix the field marked above."
    : runReason(missingChoice(draft), { current, error: previewError, preview });
  const noVerdict = preview?.warnings.find((w) => w.code === "NO_VERDICT");
  const reasonId = useId();

  const [added, setAdded] = useState<number | null>(null);
  const add = (kind: CohortKind) => {
    const next = addCohort(draft, kind);
    setDraft(next);
    setAdded(next.cohorts[next.cohorts.length - 1]?.key ?? null);
  };
  const run = async () => {
    const runInput = toInput(draft);
    if (!runInput) return;
    setRunError(null);
    setUnstarted(null);
    const created = await createComparison({ input: runInput });
    const id = created.data?.createComparison.id;
    if (!id) return setRunError(created.error ?? null);
    const started = await startComparison({ id });
    if (started.error) {
      setUnstarted(id);
      return setRunError(started.error);
    }
    navigate(`/comparisons/${id}`);
  };

  return (
    <>
      <h1>New comparison</h1>
      {choicesError && <ErrorNotice error={choicesError} />}
      <fieldset>
        <legend>Comparing</legend>
        <p className="muted">
          Two or more cohorts on the same cases: the first is the candidate, every other one a
          baseline.
        </p>
        {draft.cohorts.map((cohort, index) => (
          <CohortFields
            key={cohort.key}
            index={index}
            autoFocus={cohort.key === added}
            value={cohort}
            releases={releases}
            onChange={(next) =>
              setDraft((d) => ({
                ...d,
                cohorts: d.cohorts.map((c) => (c.key === cohort.key ? next : c)),
              }))
            }
            onRemove={() =>
              setDraft((d) => ({ ...d, cohorts: d.cohorts.filter((c) => c.key !== cohort.key) }))
            }
          />
        ))}
        <div className="row">
          <button type="button" onClick={() => add("RELEASE")}>
            Add release cohort
          </button>
          <button type="button" onClick={() => add("VARIANT")}>
            Add variant cohort
          </button>
        </div>
      </fieldset>
      {choices?.releases.pageInfo.hasNextPage && (
        <p className="muted">The release pickers offer the newest 100 releases.</p>
      )}
      <DatasetFields draft={draft} datasets={datasets} onChange={setDraft} />
      {choices?.datasets.pageInfo.hasNextPage && (
        <p className="muted">The dataset picker offers the first 100 datasets.</p>
      )}
      <RunOptions draft={draft} onChange={setDraft} serverProblems={serverProblems} />
      {draft.shipPolicy && (
        <ShipPolicyFields
          value={draft.shipPolicy}
          onChange={(shipPolicy) => setDraft({ ...draft, shipPolicy })}
          problems={{ ...policyServerProblems, ...policyProblems(draft.shipPolicy) }}
        >
          <p className="muted">
            Fixed when the comparison is made: the decision at its end follows it. It starts as
            {fromLink.shipPolicy ? " the prompt's gate settings' policy." : " the workspace's default."}
          </p>
        </ShipPolicyFields>
      )}
      <div className="row">
        <label className="field">
          Comparison label
          <input
            type="text"
            value={draft.label}
            placeholder="Optional"
            onChange={(e) => setDraft((d) => ({ ...d, label: e.target.value }))}
          />
        </label>
      </div>

      <section aria-label="Preview" className="preview">
        <h2>Before you run</h2>
        {input === null ? (
          <p className="muted">The calls and the cost show here once the comparison is chosen.</p>
        ) : preview ? (
          <PreviewPanel preview={preview} budgetCapCents={input.budgetCapCents ?? null} />
        ) : (
          !previewError && <p className="muted">Working out the calls and the cost…</p>
        )}
        {previewError && !placed && <ErrorNotice error={previewError} />}
      </section>

      <div className="row">
        <RoleButton
          needs="MEMBER"
          className="primary"
          disabled={reason !== null || busy}
          aria-describedby={reason !== null || noVerdict ? reasonId : undefined}
          onClick={() => void run()}
        >
          {noVerdict ? "Run it anyway" : "Run"}
        </RoleButton>
        {(reason ?? noVerdict) && (
          <span id={reasonId} className="muted">
            {reason ?? noVerdict?.message}
          </span>
        )}
      </div>
      {runError && Object.keys(serverPolicyProblems(runError, "shipPolicy")).length === 0 && (
        <ErrorNotice error={runError} />
      )}
      {unstarted && (
        <p>
          The comparison was made but did not start.{" "}
          <Link to={`/comparisons/${unstarted}`}>Open it</Link> to start it later.
        </p>
      )}
    </>
  );
}
