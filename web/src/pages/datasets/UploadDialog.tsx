/**
 * `dialog` "Upload dataset" (or "Upload a new version"): a JSONL or CSV file chosen or dropped,
 * textbox "Name"; "Upload" checks every line first (bad lines listed by number, nothing sent),
 * then sends the cases in chunks through the CLI's mutations with a `progressbar` "Upload";
 * "Seal" seals the version. A failure part-way discards the open version.
 */
import { useId, useState, type DragEvent, type FormEvent } from "react";
import { Link } from "react-router";
import { useClient, type CombinedError } from "urql";
import { Dialog } from "../../components/Dialog";
import { ErrorNotice } from "../../components/ErrorNotice";
import { FieldError } from "../../components/FieldError";
import { TextField } from "../../components/TextField";
import { errorExtension } from "../../lib/errors";
import { count } from "../../lib/format";
import { chunks, jsonBytes, readCaseFile, type BadLine, type NumberedCase } from "./caseFile";
import {
  AppendDatasetCases,
  CreateDataset,
  DiscardDatasetVersion,
  OpenDatasetVersion,
  SealDatasetVersion,
} from "./uploadDocuments";

/** Cases per `appendDatasetCases` call (the server takes up to 5,000). */
const CHUNK = 500;
/** JSON bytes of cases per call: the server takes a request body of 2 MB (the CLI's chunks stop
 * at 1.5 MB too, server/cli/commands/chunk_upload.py), so long cases go in smaller chunks. */
const CHUNK_BYTES = 1_500_000;
const SHOWN_BAD_LINES = 100;

type Stage =
  | { kind: "choosing" }
  | { kind: "sending"; sent: number; total: number }
  | { kind: "sent"; versionId: string; total: number }
  | { kind: "sealed"; datasetId: string; number: number; total: number };

export function UploadDialog({
  datasetId,
  title,
  onClose,
  onChanged,
}: {
  /** A dataset to add a version to; without it the upload makes a new dataset. */
  datasetId: string | null;
  title: string;
  onClose: () => void;
  onChanged: () => void;
}) {
  const client = useClient();
  const ids = { file: useId(), bad: useId() };
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState("");
  const [shown, setShown] = useState(false);
  const [bad, setBad] = useState<BadLine[]>([]);
  const [stage, setStage] = useState<Stage>({ kind: "choosing" });
  const [error, setError] = useState<CombinedError | null>(null);
  const [lineError, setLineError] = useState<string | null>(null);

  const fileError = file ? null : "Choose a JSONL or CSV file.";
  const nameError = datasetId === null && !name.trim() ? "Give the dataset a name." : null;

  const choose = (chosen: File | null) => {
    setFile(chosen);
    setBad([]);
    setLineError(null);
    if (chosen && !name) setName(chosen.name.replace(/\.(jsonl|csv|json)$/i, ""));
  };
  const drop = (event: DragEvent) => {
    event.preventDefault();
    choose(event.dataTransfer.files[0] ?? null);
  };

  /** The dataset to add to: the given one or a new one. */
  const datasetToFill = async (): Promise<string | null> => {
    if (datasetId) return datasetId;
    const made = await client.mutation(CreateDataset, { input: { name: name.trim() } }).toPromise();
    if (made.data) return made.data.createDataset.id;
    setError(made.error ?? null);
    return null;
  };

  const send = async (cases: NumberedCase[], versionId: string): Promise<boolean> => {
    let sent = 0;
    for (const chunk of chunks(cases, CHUNK, CHUNK_BYTES, (c) => jsonBytes(c.case))) {
      const result = await client
        .mutation(AppendDatasetCases, {
          versionId,
          cases: chunk.items.map((c) => c.case),
          position: chunk.position,
        })
        .toPromise();
      if (result.error) {
        const index = errorExtension(result.error, "index");
        const reason = errorExtension(result.error, "reason");
        const at = typeof index === "number" ? chunk.items[index] : undefined;
        if (at) setLineError(`Line ${at.line}: ${typeof reason === "string" ? reason : result.error.message}`);
        else setError(result.error);
        return false;
      }
      sent += chunk.items.length;
      setStage({ kind: "sending", sent, total: cases.length });
    }
    return true;
  };

  const upload = async (event: FormEvent) => {
    event.preventDefault();
    setShown(true);
    setError(null);
    setLineError(null);
    if (!file || nameError) return;
    const read = readCaseFile(file.name, new Uint8Array(await file.arrayBuffer()));
    if (read.problem) return setLineError(`The file is ${read.problem}.`);
    setBad(read.bad);
    if (read.bad.length) return;
    if (read.cases.length === 0) return setLineError("The file holds no cases.");
    setStage({ kind: "sending", sent: 0, total: read.cases.length });
    const target = await datasetToFill();
    if (!target) return setStage({ kind: "choosing" });
    const opened = await client.mutation(OpenDatasetVersion, { datasetId: target }).toPromise();
    if (!opened.data) {
      setError(opened.error ?? null);
      return setStage({ kind: "choosing" });
    }
    const versionId = opened.data.openDatasetVersion.id;
    onChanged();
    if (await send(read.cases, versionId)) {
      setStage({ kind: "sent", versionId, total: read.cases.length });
    } else {
      await client.mutation(DiscardDatasetVersion, { versionId }).toPromise();
      setStage({ kind: "choosing" });
      onChanged();
    }
  };

  const seal = async (versionId: string) => {
    const sealed = await client.mutation(SealDatasetVersion, { versionId }).toPromise();
    if (!sealed.data) return setError(sealed.error ?? null);
    const v = sealed.data.sealDatasetVersion;
    setStage({ kind: "sealed", datasetId: v.datasetId, number: v.number, total: v.caseCount });
    onChanged();
  };

  return (
    <Dialog title={title} onClose={onClose}>
      {stage.kind === "choosing" && (
        <form noValidate onSubmit={(e) => void upload(e)} className="stack">
          <div className="drop-zone" onDragOver={(e) => e.preventDefault()} onDrop={drop}>
            <label htmlFor={ids.file}>Dataset file (JSONL or CSV)</label>
            <input
              id={ids.file}
              type="file"
              accept=".jsonl,.csv,.json,application/jsonl,text/csv"
              aria-invalid={shown && fileError ? true : undefined}
              aria-describedby={shown && fileError ? `${ids.file}-e` : `${ids.file}-hint`}
              onChange={(e) => choose(e.target.files?.[0] ?? null)}
            />
            <span id={`${ids.file}-hint`} className="muted">
              Or drop the file here. JSONL: one case per line, as for shipwise dataset import. CSV: a
              header with datasetItemId, then input (or one column per template variable),
              expected, split and tags separated by ;.
            </span>
            <FieldError id={`${ids.file}-e`} message={shown ? fileError : null} />
          </div>
          {datasetId === null && (
            <TextField
              label="Name"
              value={name}
              onChange={setName}
              error={shown ? nameError : null}
            />
          )}
          {bad.length > 0 && (
            <section aria-labelledby={ids.bad} className="bad-lines">
              <h3 id={ids.bad}>
                {count(bad.length)} bad {bad.length === 1 ? "line" : "lines"}: nothing was sent
              </h3>
              <ul aria-label="Bad lines">
                {bad.slice(0, SHOWN_BAD_LINES).map((b) => (
                  <li key={b.line}>
                    Line {b.line}: {b.reason}
                  </li>
                ))}
              </ul>
              {bad.length > SHOWN_BAD_LINES && (
                <p className="muted">and {count(bad.length - SHOWN_BAD_LINES)} more</p>
              )}
            </section>
          )}
          {lineError && (
            <p role="alert" className="error">
              {lineError}
            </p>
          )}
          <div className="row">
            <button type="submit" className="primary">
              Upload
            </button>
          </div>
        </form>
      )}
      {stage.kind === "sending" && (
        <div className="stack">
          <progress aria-label="Upload" max={stage.total} value={stage.sent} />
          <p aria-live="polite">
            {count(stage.sent)} of {count(stage.total)} cases sent
          </p>
        </div>
      )}
      {stage.kind === "sent" && (
        <div className="stack">
          <progress aria-label="Upload" max={stage.total} value={stage.total} />
          <p role="status">
            {count(stage.total)} cases uploaded. Seal the version to compare on it: a sealed version
            never changes. Closed now, the version stays open: seal or discard it on the dataset's
            page.
          </p>
          <div className="row">
            <button type="button" className="primary" onClick={() => void seal(stage.versionId)}>
              Seal
            </button>
          </div>
        </div>
      )}
      {stage.kind === "sealed" && (
        <p role="status">
          Version {stage.number} is sealed with {count(stage.total)} cases.{" "}
          <Link to={`/datasets/${stage.datasetId}`} onClick={onClose}>
            Open the dataset
          </Link>
        </p>
      )}
      {error && <ErrorNotice error={error} />}
    </Dialog>
  );
}
