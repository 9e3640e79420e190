/** `dialog` "Model connection": a new connection, checked at once by the server. */
import { useId, useState, type FormEvent } from "react";
import { useMutation } from "urql";
import { Dialog } from "../../components/Dialog";
import type { AddDialogProps } from "../../components/SettingsTable";
import { FieldError } from "../../components/FieldError";
import { SubmitRow } from "../../components/SubmitRow";
import { TextField } from "../../components/TextField";
import type { ConnectionKind, CreateModelConnectionInput } from "../../gql/graphql";
import { messageAt } from "../../lib/fieldErrors";
import { enumWords } from "../../lib/words";
import { CreateConnection } from "./settingsDocuments";

const LABELS: Record<string, string> = {
  name: "Name",
  baseUrl: "Base URL",
  apiKey: "API key",
  inputCentsPerMillionTokens: "Input price",
  outputCentsPerMillionTokens: "Output price",
  monthlyCapCents: "Monthly cap",
  maxConcurrency: "Calls at once",
  accuracy: "Accuracy",
  headers: "Headers",
};

interface Draft {
  kind: ConnectionKind;
  name: string;
  baseUrl: string;
  apiKey: string;
  inputCentsPerMillionTokens: string;
  outputCentsPerMillionTokens: string;
  monthlyCapCents: string;
  maxConcurrency: string;
  accuracy: string;
  /** One `Name: value` per line. */
  headers: string;
}

const AMOUNT = /^\d+(\.\d+)?$/;

/** What is wrong with each field, in words; an empty object when nothing is. */
export function connectionErrors(d: Draft): Partial<Record<keyof Draft, string>> {
  const errors: Partial<Record<keyof Draft, string>> = {};
  if (!d.name.trim()) errors.name = "Give the connection a name.";
  if (d.kind === "OPENAI_COMPATIBLE" && !/^https?:\/\/\S+$/.test(d.baseUrl.trim()))
    errors.baseUrl = "Give the base URL, starting with http:// or https://.";
  for (const key of ["inputCentsPerMillionTokens", "outputCentsPerMillionTokens"] as const)
    if (!AMOUNT.test(d[key].trim())) errors[key] = "Give a price in cents, 0 or more.";
  if (d.monthlyCapCents.trim() && !AMOUNT.test(d.monthlyCapCents.trim()))
    errors.monthlyCapCents = "Give an amount in cents, or leave it empty for no cap.";
  const concurrency = Number(d.maxConcurrency);
  if (!/^\d+$/.test(d.maxConcurrency.trim()) || concurrency < 1 || concurrency > 256)
    errors.maxConcurrency = "Give a whole number from 1 to 256.";
  const badHeader = headerLines(d.headers).findIndex((h) => h === null);
  if (d.kind !== "SIMULATED" && badHeader >= 0)
    errors.headers = `Line ${badHeader + 1}: write a header as Name: value.`;
  const accuracy = Number(d.accuracy);
  if (d.kind === "SIMULATED" && (!AMOUNT.test(d.accuracy.trim()) || accuracy > 1))
    errors.accuracy = "Give a share from 0 to 1, e.g. 0.8.";
  return errors;
}

/** Each non-blank line as a header, or null where a line is not `Name: value`. */
function headerLines(text: string): ({ name: string; value: string } | null)[] {
  return text
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => {
      const at = line.indexOf(":");
      const name = line.slice(0, at).trim();
      const value = line.slice(at + 1).trim();
      return at > 0 && /^[A-Za-z0-9-]+$/.test(name) && value ? { name, value } : null;
    });
}

function toInput(d: Draft): CreateModelConnectionInput {
  const cap = d.monthlyCapCents.trim();
  const simulated = d.kind === "SIMULATED";
  return {
    kind: d.kind,
    name: d.name.trim(),
    baseUrl: simulated || !d.baseUrl.trim() ? null : d.baseUrl.trim(),
    apiKey: simulated || !d.apiKey ? null : d.apiKey,
    inputCentsPerMillionTokens: Number(d.inputCentsPerMillionTokens),
    outputCentsPerMillionTokens: Number(d.outputCentsPerMillionTokens),
    monthlyCapCents: cap ? Number(cap) : null,
    maxConcurrency: Number(d.maxConcurrency),
    simulation: simulated ? { accuracy: Number(d.accuracy) } : null,
    headers: simulated ? null : headerLines(d.headers).filter((h) => h !== null),
  };
}

export function ConnectionDialog({ onClose, onAdded }: AddDialogProps) {
  const [draft, setDraft] = useState<Draft>({
    kind: "OPENAI_COMPATIBLE",
    name: "",
    baseUrl: "",
    apiKey: "",
    inputCentsPerMillionTokens: "0",
    outputCentsPerMillionTokens: "0",
    monthlyCapCents: "",
    maxConcurrency: "8",
    accuracy: "0.8",
    headers: "",
  });
  const [shown, setShown] = useState(false);
  const [{ fetching, error }, create] = useMutation(CreateConnection);
  const errors = connectionErrors(draft);
  const at = (key: keyof Draft): string | null =>
    (shown ? errors[key] : undefined) ?? messageAt(error, key, LABELS);
  const placedServerError = Object.keys(LABELS).some((k) => messageAt(error, k, LABELS));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setShown(true);
    if (Object.keys(errors).length > 0) return;
    const result = await create({ input: toInput(draft) });
    if (!result.error) onAdded();
  };

  const input = (key: keyof Draft, label: string, type = "text", hint?: string) => (
    <TextField
      label={label}
      type={type}
      value={draft[key]}
      onChange={(value) => setDraft({ ...draft, [key]: value })}
      error={at(key) ?? null}
      hint={hint}
      autoComplete={type === "password" ? "new-password" : undefined}
    />
  );

  return (
    <Dialog title="Model connection" onClose={onClose}>
      <form noValidate onSubmit={(e) => void submit(e)} className="stack">
        <label className="field">
          Kind
          <select
            value={draft.kind}
            onChange={(e) => setDraft({ ...draft, kind: e.target.value as ConnectionKind })}
          >
            {(["OPENAI_COMPATIBLE", "ANTHROPIC", "SIMULATED"] as const).map((k) => (
              <option key={k} value={k}>
                {enumWords(k)}
              </option>
            ))}
          </select>
        </label>
        {input("name", "Name")}
        {draft.kind !== "SIMULATED" ? (
          <>
            {input(
              "baseUrl",
              "Base URL",
              "url",
              draft.kind === "ANTHROPIC"
                ? "Optional: Anthropic's own API when left empty"
                : "The URL that /models and /chat/completions hang off",
            )}
            {input("apiKey", "API key", "password", "Stored encrypted; never shown again")}
            <HeadersField
              value={draft.headers}
              error={at("headers")}
              onChange={(headers) => setDraft({ ...draft, headers })}
            />
          </>
        ) : (
          input("accuracy", "Accuracy", "text", "Share of cases answered right, 0 to 1")
        )}
        {input("inputCentsPerMillionTokens", "Input price (cents per million tokens)", "number")}
        {input("outputCentsPerMillionTokens", "Output price (cents per million tokens)", "number")}
        {input("monthlyCapCents", "Monthly cap (cents)", "number", "Optional")}
        {input("maxConcurrency", "Calls at once", "number")}
        <SubmitRow label="Add and check" busy={fetching} error={!placedServerError && error} />
      </form>
    </Dialog>
  );
}

/** Extra request headers, one `Name: value` per line; write-only like the key. */
function HeadersField({
  value,
  error,
  onChange,
}: {
  value: string;
  error: string | null;
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>Headers</label>
      <textarea
        id={id}
        rows={2}
        value={value}
        placeholder="api-key: …"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-e` : `${id}-hint`}
        onChange={(e) => onChange(e.target.value)}
      />
      {!error && (
        <span id={`${id}-hint`} className="muted">
          Optional, one Name: value per line; stored encrypted, never shown again
        </span>
      )}
      <FieldError id={`${id}-e`} message={error} />
    </div>
  );
}
