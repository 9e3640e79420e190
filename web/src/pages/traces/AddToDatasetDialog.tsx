/**
 * `dialog` "Add to dataset" on `/traces/:id`: a `combobox` "Dataset" (the workspace's own) and
 * a typed "Expected answer"; the trace joins the dataset's open version (opened when there is
 * none), and a `status` says which version and how many cases it holds.
 */
import { useId, useState, type FormEvent } from "react";
import { Link } from "react-router";
import { useMutation } from "urql";
import { useQuery } from "../../lib/query";
import { Dialog } from "../../components/Dialog";
import { ErrorNotice } from "../../components/ErrorNotice";
import { FieldError } from "../../components/FieldError";
import { count } from "../../lib/format";
import { AddTraceToDataset, WritableDatasetsQuery } from "./traceDatasetDocuments";

export function AddToDatasetDialog({ traceId, onClose }: { traceId: string; onClose: () => void }) {
  const ids = { dataset: useId(), expected: useId() };
  const [{ data }] = useQuery({ query: WritableDatasetsQuery });
  const datasets = data?.datasets.edges.map((e) => e.node).filter((d) => !d.builtIn) ?? [];
  const [datasetId, setDatasetId] = useState("");
  const [expected, setExpected] = useState("");
  const [shown, setShown] = useState(false);
  const [{ fetching, error, data: added }, add] = useMutation(AddTraceToDataset);
  const missing = shown && !datasetId ? "Choose the dataset the trace goes to." : null;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setShown(true);
    if (!datasetId) return;
    await add({ traceId, datasetId, expected: expected.trim() ? expected : null });
  };
  const version = added?.addTraceToDataset;
  const name = datasets.find((d) => d.id === datasetId)?.name ?? "the dataset";
  return (
    <Dialog title="Add to dataset" onClose={onClose}>
      <form noValidate onSubmit={(e) => void submit(e)} className="stack">
        <div className="field">
          <label htmlFor={ids.dataset}>Dataset</label>
          <select
            id={ids.dataset}
            value={datasetId}
            aria-invalid={missing ? true : undefined}
            aria-describedby={missing ? `${ids.dataset}-e` : undefined}
            onChange={(e) => setDatasetId(e.target.value)}
          >
            <option value="">Choose a dataset</option>
            {datasets.map((d) => (
              <option key={d.id} value={d.id}>
                {d.name}
              </option>
            ))}
          </select>
          <FieldError id={`${ids.dataset}-e`} message={missing} />
        </div>
        <div className="field">
          <label htmlFor={ids.expected}>Expected answer</label>
          <textarea
            id={ids.expected}
            rows={3}
            value={expected}
            onChange={(e) => setExpected(e.target.value)}
          />
        </div>
        <p className="muted">
          The trace&apos;s input messages become the case&apos;s input; the workspace&apos;s
          redaction patterns apply.
        </p>
        <div className="row">
          <button type="submit" className="primary" disabled={fetching}>
            Add
          </button>
        </div>
        {error && <ErrorNotice error={error} />}
        {version && !error && (
          <p role="status">
            {`Added to ${name}, version ${version.number} (open, ${count(version.caseCount)} cases). `}
            <Link to={`/datasets/${datasetId}`}>Open the dataset</Link>
          </p>
        )}
      </form>
    </Dialog>
  );
}
