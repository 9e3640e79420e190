/** `combobox` "Candidate run", `combobox` "Baseline run" and button "Diff" → the diff view. */
import { useId, useState, type FormEvent } from "react";
import { useNavigate } from "react-router";
import { exactTime } from "../../lib/format";
import { defaultPair, runName, type NamedRun } from "./runWords";

interface ChoosableRun extends NamedRun {
  status: string;
  comparisonId?: string | null;
  createdAt: string;
}

export function DiffChooser({
  experimentId,
  runs,
}: {
  experimentId: string;
  /** Newest first. */
  runs: ChoosableRun[];
}) {
  const navigate = useNavigate();
  const candidateId = useId();
  const baselineId = useId();
  const completed = runs.filter((r) => r.status === "COMPLETED");
  // The newest comparison's candidate run against its baseline (not whichever came first).
  const [candidate, setCandidate] = useState(() => defaultPair(completed).candidate);
  const [baseline, setBaseline] = useState(() => defaultPair(completed).baseline);
  const ready = Boolean(candidate && baseline && candidate !== baseline);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!ready) return;
    const query = new URLSearchParams({ candidate, baseline });
    navigate(`/experiments/${experimentId}/diff?${query.toString()}`);
  };
  const options = completed.map((run) => (
    <option key={run.id} value={run.id}>
      {runName(run)} · {exactTime(run.createdAt)}
    </option>
  ));
  return (
    <form onSubmit={submit} className="row diff-chooser">
      <div className="field">
        <label htmlFor={candidateId}>Candidate run</label>
        <select id={candidateId} value={candidate} onChange={(e) => setCandidate(e.target.value)}>
          <option value="">Choose a run</option>
          {options}
        </select>
      </div>
      <div className="field">
        <label htmlFor={baselineId}>Baseline run</label>
        <select id={baselineId} value={baseline} onChange={(e) => setBaseline(e.target.value)}>
          <option value="">Choose a run</option>
          {options}
        </select>
      </div>
      <button type="submit" disabled={!ready} aria-describedby={`${candidateId}-why`}>
        Diff
      </button>
      <span id={`${candidateId}-why`} className="muted">
        {completed.length < 2
          ? "Two completed runs are needed for a diff."
          : candidate === baseline
            ? "Choose two different runs."
            : "Completed runs only."}
      </span>
    </form>
  );
}
