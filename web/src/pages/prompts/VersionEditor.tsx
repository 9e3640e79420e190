/**
 * The editor of one asset version: a messages editor (with the variables found listed) for a
 * prompt template, the fields of a model config, a rubric's text and scale.
 */
import { useId } from "react";
import { useQuery } from "../../lib/query";
import { FieldError } from "../../components/FieldError";
import { TextField } from "../../components/TextField";
import { enumWords } from "../../lib/words";
import { variablesIn, type Draft, type EditableKind } from "./assetContent";
import { ConnectionChoicesQuery } from "./promptsDocuments";

const ROLES = ["system", "user", "assistant"];

export function VersionEditor({
  kind,
  draft,
  errors,
  onChange,
}: {
  kind: EditableKind;
  draft: Draft;
  /** Shown errors by field (empty until the person tries to save). */
  errors: Record<string, string>;
  onChange: (draft: Draft) => void;
}) {
  if (kind === "PROMPT_TEMPLATE") return <MessagesEditor draft={draft} errors={errors} onChange={onChange} />;
  if (kind === "MODEL_CONFIG") return <ModelConfigEditor draft={draft} errors={errors} onChange={onChange} />;
  return <RubricEditor draft={draft} errors={errors} onChange={onChange} />;
}

interface EditorProps {
  draft: Draft;
  errors: Record<string, string>;
  onChange: (draft: Draft) => void;
}

function MessagesEditor({ draft, errors, onChange }: EditorProps) {
  const base = useId();
  const variables = variablesIn(draft.messages);
  const set = (i: number, patch: Partial<Draft["messages"][number]>) =>
    onChange({ ...draft, messages: draft.messages.map((m, j) => (j === i ? { ...m, ...patch } : m)) });
  return (
    <>
      {draft.messages.map((m, i) => {
        const id = `${base}-${i}`;
        const error = errors[`messages.${i}`] ?? null;
        return (
          <fieldset key={i} className="message">
            <legend>Message {i + 1}</legend>
            <div className="row">
              <label className="field">
                Speaker
                <select value={m.role} onChange={(e) => set(i, { role: e.target.value })}>
                  {ROLES.map((r) => (
                    <option key={r} value={r}>
                      {r}
                    </option>
                  ))}
                </select>
              </label>
              <button
                type="button"
                onClick={() => onChange({ ...draft, messages: draft.messages.filter((_, j) => j !== i) })}
              >
                Remove message {i + 1}
              </button>
            </div>
            <div className="field">
              <label htmlFor={id}>Content</label>
              <textarea
                id={id}
                rows={4}
                value={m.content}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${id}-e` : undefined}
                onChange={(e) => set(i, { content: e.target.value })}
              />
              <FieldError id={`${id}-e`} message={error} />
            </div>
          </fieldset>
        );
      })}
      <FieldError id={`${base}-none`} message={errors.messages ?? null} />
      <div className="row">
        <button
          type="button"
          onClick={() => onChange({ ...draft, messages: [...draft.messages, { role: "user", content: "" }] })}
        >
          Add message
        </button>
      </div>
      <p aria-live="polite">
        Variables found:{" "}
        {variables.length ? variables.map((v) => <code key={v}>{v} </code>) : <span className="muted">none</span>}
      </p>
    </>
  );
}

function ModelConfigEditor({ draft, errors, onChange }: EditorProps) {
  const base = useId();
  const [{ data }] = useQuery({ query: ConnectionChoicesQuery });
  const connections = data?.modelConnections.edges.map((e) => e.node) ?? [];
  const field = (key: "model" | "temperature" | "maxOutputTokens", label: string, type = "text") => (
    <TextField
      label={label}
      type={type}
      value={draft[key]}
      onChange={(value) => onChange({ ...draft, [key]: value })}
      error={errors[key] ?? null}
    />
  );
  const connectionError = errors.connectionId ?? null;
  return (
    <>
      <div className="field">
        <label htmlFor={`${base}-connection`}>Model connection</label>
        <select
          id={`${base}-connection`}
          value={draft.connectionId}
          aria-invalid={connectionError ? true : undefined}
          aria-describedby={connectionError ? `${base}-connection-e` : undefined}
          onChange={(e) => onChange({ ...draft, connectionId: e.target.value })}
        >
          <option value="">Choose a connection</option>
          {connections.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
              {c.simulated ? " (simulated)" : ""}
            </option>
          ))}
        </select>
        <FieldError id={`${base}-connection-e`} message={connectionError} />
      </div>
      {field("model", "Model")}
      {field("temperature", "Temperature", "number")}
      {field("maxOutputTokens", "Max output tokens", "number")}
    </>
  );
}

function RubricEditor({ draft, errors, onChange }: EditorProps) {
  const id = useId();
  const error = errors.rubricText ?? null;
  return (
    <>
      <div className="field">
        <label htmlFor={id}>Rubric text</label>
        <textarea
          id={id}
          rows={5}
          value={draft.rubricText}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-e` : undefined}
          onChange={(e) => onChange({ ...draft, rubricText: e.target.value })}
        />
        <FieldError id={`${id}-e`} message={error} />
      </div>
      <label className="field">
        Scale
        <select
          value={draft.scale}
          onChange={(e) => onChange({ ...draft, scale: e.target.value as Draft["scale"] })}
        >
          {(["PASS_FAIL", "SCORE_0_1"] as const).map((s) => (
            <option key={s} value={s}>
              {enumWords(s)}
            </option>
          ))}
        </select>
      </label>
    </>
  );
}
