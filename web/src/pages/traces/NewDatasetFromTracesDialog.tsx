/**
 * `dialog` "New dataset from traces" on `/traces`: the list's current filters, a seeded sample
 * (size, seed, strata, duplicates dropped), the expected answers' source and what to redact.
 * "Preview" counts what would be taken (`region` "Preview"); "Create dataset" is offered only
 * for the settings previewed, and then seals a new dataset's first version.
 */
import { useId, useState, type FormEvent } from "react";
import { Link } from "react-router";
import { useClient, useMutation, type CombinedError } from "urql";
import { Dialog } from "../../components/Dialog";
import { ErrorNotice } from "../../components/ErrorNotice";
import { FieldError } from "../../components/FieldError";
import type {
  CreateDatasetFromTracesInput,
  ExpectedFrom,
  PreviewDatasetFromTracesQuery,
  Redaction,
  TraceFilter,
  TraceStratifyBy,
} from "../../gql/graphql";
import { count } from "../../lib/format";
import { messageAt } from "../../lib/fieldErrors";
import { CreateDatasetFromTraces, PreviewDatasetFromTraces } from "./traceDatasetDocuments";

const REDACTIONS: { value: Redaction; label: string }[] = [
  { value: "EMAIL", label: "Email addresses" },
  { value: "PHONE", label: "Phone numbers" },
  { value: "CARD_NUMBER", label: "Card numbers" },
  { value: "API_KEY", label: "API keys" },
  { value: "IP_ADDRESS", label: "IP addresses" },
];
const LABELS = {
  name: "Name",
  size: "Sample size",
  seed: "Seed",
  filter: "The filters",
};

type Counts = PreviewDatasetFromTracesQuery["previewDatasetFromTraces"];

function describe(filter: TraceFilter): string {
  const parts = Object.entries(filter)
    .filter(([, value]) => value !== undefined && value !== null && value !== "")
    .map(([key, value]) => `${key} ${String(value)}`);
  return parts.length ? parts.join(", ") : "none: every trace";
}

function Preview({ counts }: { counts: Counts }) {
  return (
    <section aria-label="Preview" className="stack">
      <p role="status">
        {`${count(counts.matched)} traces match; ${count(counts.taken)} would be taken, ` +
          `${count(counts.duplicates)} duplicates dropped, ` +
          `${count(counts.redacted)} values redacted.`}
      </p>
      {counts.withoutInput > 0 && <p>{`${count(counts.withoutInput)} have no input.`}</p>}
      {counts.strata.length > 1 && (
        <ul aria-label="Strata">
          {counts.strata.map((s) => (
            <li key={s.key ?? ""} className="text">
              {`${s.key ?? "none"}: ${count(s.taken)} of ${count(s.matched)}`}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function NewDatasetFromTracesDialog({
  filter,
  onClose,
}: {
  filter: TraceFilter;
  onClose: () => void;
}) {
  const ids = {
    name: useId(),
    size: useId(),
    seed: useId(),
    strata: useId(),
    expected: useId(),
    dedupe: useId(),
  };
  const client = useClient();
  const [name, setName] = useState("");
  const [size, setSize] = useState("100");
  const [seed, setSeed] = useState("0");
  const [stratifyBy, setStratifyBy] = useState("");
  const [dedupe, setDedupe] = useState(true);
  const [expectedFrom, setExpectedFrom] = useState<ExpectedFrom>("NONE");
  const [redact, setRedact] = useState<Redaction[]>(REDACTIONS.map((r) => r.value));
  const [previewed, setPreviewed] = useState<{ key: string; counts: Counts } | null>(null);
  const [previewError, setPreviewError] = useState<CombinedError | null>(null);
  const [previewing, setPreviewing] = useState(false);
  const [{ fetching, error, data: made }, create] = useMutation(CreateDatasetFromTraces);

  const input: CreateDatasetFromTracesInput = {
    filter,
    name: name.trim(),
    sample: {
      size: Number(size),
      seed: Number(seed),
      dedupe,
      stratifyBy: stratifyBy ? (stratifyBy as TraceStratifyBy) : null,
    },
    expectedFrom,
    redact,
  };
  const key = JSON.stringify(input);
  const current = previewed?.key === key ? previewed.counts : null;
  const problem = previewError ?? error;
  const fieldError = (field: string) => messageAt(problem, field, LABELS);

  const preview = async () => {
    setPreviewing(true);
    const result = await client
      .query(PreviewDatasetFromTraces, { input }, { requestPolicy: "network-only" })
      .toPromise();
    setPreviewing(false);
    setPreviewError(result.error ?? null);
    if (result.data) setPreviewed({ key, counts: result.data.previewDatasetFromTraces });
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (current) await create({ input });
  };
  const toggle = (value: Redaction, on: boolean) =>
    setRedact(on ? [...redact, value] : redact.filter((r) => r !== value));
  const done = made?.createDatasetFromTraces;
  const sizeError = fieldError("sample.size");
  const nameError = fieldError("name") ?? fieldError("datasetId");

  return (
    <Dialog title="New dataset from traces" onClose={onClose}>
      <form noValidate onSubmit={(e) => void submit(e)} className="stack">
        <p>{`Filters: ${describe(filter)}.`}</p>
        <div className="field">
          <label htmlFor={ids.name}>Name</label>
          <input id={ids.name} type="text" value={name}
            aria-invalid={nameError ? true : undefined}
            aria-describedby={nameError ? `${ids.name}-e` : undefined}
            onChange={(e) => setName(e.target.value)} />
          <FieldError id={`${ids.name}-e`} message={nameError} />
        </div>
        <div className="row">
          <div className="field">
            <label htmlFor={ids.size}>Sample size</label>
            <input id={ids.size} type="number" min={1} max={100000} value={size}
              aria-invalid={sizeError ? true : undefined}
              aria-describedby={sizeError ? `${ids.size}-e` : undefined}
              onChange={(e) => setSize(e.target.value)} />
            <FieldError id={`${ids.size}-e`} message={sizeError} />
          </div>
          <div className="field">
            <label htmlFor={ids.seed}>Seed</label>
            <input id={ids.seed} type="number" value={seed}
              onChange={(e) => setSeed(e.target.value)} />
          </div>
        </div>
        <div className="field">
          <label htmlFor={ids.strata}>Stratify by</label>
          <select id={ids.strata} value={stratifyBy} onChange={(e) => setStratifyBy(e.target.value)}>
            <option value="">Nothing</option>
            <option value="RELEASE">Release</option>
            <option value="MODEL">Model</option>
            <option value="SERVICE">Service</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor={ids.expected}>Expected answer from</label>
          <select id={ids.expected} value={expectedFrom}
            onChange={(e) => setExpectedFrom(e.target.value as ExpectedFrom)}>
            <option value="NONE">Nothing</option>
            <option value="ATTRIBUTE">The shipwise.expected attribute</option>
            <option value="OUTPUT_WITH_FEEDBACK">The output, where its feedback is positive</option>
          </select>
        </div>
        <div className="row">
          <input id={ids.dedupe} type="checkbox" checked={dedupe}
            onChange={(e) => setDedupe(e.target.checked)} />
          <label htmlFor={ids.dedupe}>Drop traces whose input was taken already</label>
        </div>
        <fieldset>
          <legend>Redact</legend>
          {REDACTIONS.map((r) => (
            <label key={r.value} className="row">
              <input type="checkbox" checked={redact.includes(r.value)}
                onChange={(e) => toggle(r.value, e.target.checked)} />
              {r.label}
            </label>
          ))}
        </fieldset>
        <div className="row">
          <button type="button" disabled={previewing} onClick={() => void preview()}>
            Preview
          </button>
          <button type="submit" className="primary" disabled={!current || fetching || !!done}>
            Create dataset
          </button>
        </div>
        {!current && !done && <p className="muted">Preview the counts before creating.</p>}
        {current && !done && <Preview counts={current} />}
        {problem && !sizeError && !nameError && <ErrorNotice error={problem} />}
        {done?.dataset && done.version && (
          <p role="status">
            {`Dataset ${done.dataset.name}: version ${done.version.number} sealed with ` +
              `${count(done.version.caseCount)} cases. `}
            <Link to={`/datasets/${done.dataset.id}`}>Open the dataset</Link>
          </p>
        )}
      </form>
    </Dialog>
  );
}
