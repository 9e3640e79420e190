import { useId, type HTMLInputTypeAttribute } from "react";
import { FieldError } from "./FieldError";

/**
 * A labelled one-line input with its error right below it: while `error` is given the input
 * is `aria-invalid` and described by it, otherwise by its `hint` (the dialogs' "Name",
 * "Token name", "URL", "Secret", a connection's prices, a model config's temperature).
 */
export function TextField({
  label,
  value,
  onChange,
  error,
  hint,
  type = "text",
  autoComplete,
  suggestions,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** What is wrong, once it should show; null while the field is fine or not yet checked. */
  error: string | null;
  /** Words below the field while it has no error. */
  hint?: string;
  type?: HTMLInputTypeAttribute;
  autoComplete?: string;
  /** Values offered as the person types (a `datalist`): free text is still taken. */
  suggestions?: readonly string[];
}) {
  const id = useId();
  const errorId = `${id}-e`;
  const hintId = `${id}-hint`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type={type}
        value={value}
        step={type === "number" ? "any" : undefined}
        autoComplete={autoComplete}
        list={suggestions?.length ? `${id}-list` : undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : hint ? hintId : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      {suggestions?.length ? (
        <datalist id={`${id}-list`}>
          {suggestions.map((s) => (
            <option key={s} value={s} />
          ))}
        </datalist>
      ) : null}
      {hint && !error && (
        <span id={hintId} className="muted">
          {hint}
        </span>
      )}
      <FieldError id={errorId} message={error} />
    </div>
  );
}
