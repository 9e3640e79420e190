/**
 * `/live/new`: "New live comparison" — a canary decided while it runs (docs/live.md). The
 * service and releases are offered from the traces stored so far; quality is read from the
 * expected output, from a feedback score, or both; the ship policy starts as the workspace's
 * default. Made, it opens `/live/:id`.
 */
import { useId, useState, type FormEvent } from "react";
import { useNavigate } from "react-router";
import { useMutation } from "urql";
import { ErrorNotice } from "../../components/ErrorNotice";
import { FieldError } from "../../components/FieldError";
import { ShipPolicyFields } from "../../components/ShipPolicyFields";
import { SubmitRow } from "../../components/SubmitRow";
import { TextField } from "../../components/TextField";
import { messageAt } from "../../lib/fieldErrors";
import { useQuery } from "../../lib/query";
import {
  policyDraft,
  policyInput,
  policyProblems,
  serverPolicyProblems,
  type PolicyDraft,
} from "../../lib/shipPolicyDraft";
import { CreateLiveComparison, NewLiveChoicesQuery } from "./liveDocuments";

type Quality = "CONTAINS" | "FEEDBACK" | "BOTH";

const QUALITY: readonly [Quality, string][] = [
  ["CONTAINS", "The output contains the trace's expected answer (shipwise.expected)"],
  ["FEEDBACK", "A feedback score on the trace"],
  ["BOTH", "Both"],
];

const LABELS = {
  service: "Service",
  candidateRelease: "Candidate release",
  baselineReleases: "Baseline releases",
  maxDays: "Days at most",
  checks: "Quality",
};

interface Draft {
  label: string;
  service: string;
  candidate: string;
  baselines: string;
  quality: Quality;
  feedbackName: string;
  feedbackAtLeast: string;
  maxDays: string;
}

const START: Draft = {
  label: "",
  service: "",
  candidate: "",
  baselines: "",
  quality: "CONTAINS",
  feedbackName: "thumbs",
  feedbackAtLeast: "1",
  maxDays: "14",
};

function baselinesOf(text: string): string[] {
  return text
    .split(",")
    .map((b) => b.trim())
    .filter(Boolean);
}

/** What is wrong before asking the server, in words, by field. */
function problemsOf(draft: Draft): Record<string, string> {
  const problems: Record<string, string> = {};
  const baselines = baselinesOf(draft.baselines);
  if (!draft.service.trim()) problems.service = "Name the service whose traces it watches.";
  if (!draft.candidate.trim()) problems.candidateRelease = "Name the release going out as the canary.";
  if (!baselines.length) problems.baselineReleases = "Name at least one release it replaces.";
  else if (baselines.includes(draft.candidate.trim()))
    problems.baselineReleases = "A baseline must differ from the candidate.";
  if (draft.quality !== "CONTAINS") {
    if (!draft.feedbackName.trim()) problems.feedbackName = "Name the feedback score, e.g. thumbs.";
    if (!Number.isFinite(Number.parseFloat(draft.feedbackAtLeast)))
      problems.feedbackAtLeast = "Type a number, e.g. 1.";
  }
  if (!/^\d+$/.test(draft.maxDays.trim())) problems.maxDays = "Type a whole number of days.";
  return problems;
}

function checksOf(draft: Draft): Record<string, unknown>[] {
  const feedback = {
    kind: "FEEDBACK",
    name: draft.feedbackName.trim(),
    atLeast: Number.parseFloat(draft.feedbackAtLeast),
  };
  if (draft.quality === "FEEDBACK") return [feedback];
  if (draft.quality === "BOTH") return [{ kind: "CONTAINS" }, feedback];
  return [{ kind: "CONTAINS" }];
}

export function NewLivePage() {
  const navigate = useNavigate();
  const [draft, setDraft] = useState<Draft>(START);
  const [typedPolicy, setPolicy] = useState<PolicyDraft | null>(null);
  const [shown, setShown] = useState(false);
  const checksErrorId = useId();
  const [{ data: choices, error: choicesError }] = useQuery({ query: NewLiveChoicesQuery });
  const [{ fetching, error }, create] = useMutation(CreateLiveComparison);
  const defaultPolicy = choices?.workspace.settings.defaultShipPolicy;
  const policy = typedPolicy ?? (defaultPolicy ? policyDraft(defaultPolicy) : null);
  const services = choices?.services.flatMap((s) => (s.key ? [s.key] : [])) ?? [];
  const releases = choices?.releases.flatMap((r) => (r.key ? [r.key] : [])) ?? [];
  const problems = problemsOf(draft);
  const localPolicyProblems = policy ? policyProblems(policy) : {};
  const change = (next: Partial<Draft>) => setDraft((d) => ({ ...d, ...next }));
  const at = (field: keyof typeof LABELS) =>
    (shown ? problems[field] : null) ?? messageAt(error, field, LABELS);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setShown(true);
    if (Object.keys(problems).length || Object.keys(localPolicyProblems).length) return;
    const result = await create({
      input: {
        label: draft.label.trim() || null,
        service: draft.service.trim(),
        candidateRelease: draft.candidate.trim(),
        baselineReleases: baselinesOf(draft.baselines),
        checks: checksOf(draft),
        maxDays: Number.parseInt(draft.maxDays, 10),
        ...(policy ? { shipPolicy: policyInput(policy) } : {}),
      },
    });
    const id = result.data?.createLiveComparison.id;
    if (id) navigate(`/live/${id}`);
  };
  const placed = ["service", "candidateRelease", "baselineReleases", "maxDays", "checks"].some(
    (field) => messageAt(error, field, LABELS),
  );
  const policyServer = serverPolicyProblems(error, "shipPolicy");

  return (
    <>
      <h1>New live comparison</h1>
      <p className="muted">
        A canary decided while it runs: the candidate's production traces against those of the
        releases it replaces, from the moment you start it; traces from before do not count.
      </p>
      {choicesError && <ErrorNotice error={choicesError} />}
      <form noValidate onSubmit={(e) => void submit(e)} className="stack">
        <fieldset>
          <legend>Traffic</legend>
          <TextField
            label="Service"
            value={draft.service}
            onChange={(service) => change({ service })}
            error={at("service")}
            hint="The traces' service.name."
            suggestions={services}
          />
          <TextField
            label="Candidate release"
            value={draft.candidate}
            onChange={(candidate) => change({ candidate })}
            error={at("candidateRelease")}
            hint="The traces' shipwise.release, else service.version."
            suggestions={releases}
          />
          <TextField
            label="Baseline releases"
            value={draft.baselines}
            onChange={(baselines) => change({ baselines })}
            error={at("baselineReleases")}
            hint="One or more, separated by commas."
            suggestions={releases}
          />
        </fieldset>
        <fieldset>
          <legend>Quality</legend>
          {QUALITY.map(([value, words]) => (
            <label key={value} className="row">
              <input
                type="radio"
                name="quality"
                value={value}
                checked={draft.quality === value}
                onChange={() => change({ quality: value })}
              />
              {words}
            </label>
          ))}
          {draft.quality !== "CONTAINS" && (
            <div className="row">
              <TextField
                label="Feedback name"
                value={draft.feedbackName}
                onChange={(feedbackName) => change({ feedbackName })}
                error={shown ? (problems.feedbackName ?? null) : null}
                hint="scoreTrace's name, or shipwise.feedback.<name> on a span."
              />
              <TextField
                label="Passes at a score of at least"
                type="number"
                value={draft.feedbackAtLeast}
                onChange={(feedbackAtLeast) => change({ feedbackAtLeast })}
                error={shown ? (problems.feedbackAtLeast ?? null) : null}
              />
            </div>
          )}
          <FieldError id={checksErrorId} message={messageAt(error, "checks", LABELS)} />
        </fieldset>
        {policy && (
          <ShipPolicyFields
            value={policy}
            onChange={setPolicy}
            problems={{ ...policyServer, ...(shown ? localPolicyProblems : {}) }}
          >
            <p className="muted">
              Fixed when the live comparison starts. It starts as the workspace's default.
            </p>
          </ShipPolicyFields>
        )}
        <div className="row">
          <TextField
            label="Label"
            value={draft.label}
            onChange={(label) => change({ label })}
            error={null}
            hint="Optional, e.g. checkout canary."
          />
          <TextField
            label="Days at most"
            type="number"
            value={draft.maxDays}
            onChange={(maxDays) => change({ maxDays })}
            error={at("maxDays")}
          />
        </div>
        <SubmitRow
          label="Start live comparison"
          busy={fetching}
          error={!placed && Object.keys(policyServer).length === 0 && error}
        />
      </form>
    </>
  );
}
