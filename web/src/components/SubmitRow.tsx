import type { CombinedError } from "urql";
import { ErrorNotice } from "./ErrorNotice";

/**
 * A form's end: its submitting button, off while `busy`, and below it the answer's `error` in
 * words (left out where the form already shows it beside a field).
 */
export function SubmitRow({
  label,
  busy,
  error,
}: {
  label: string;
  busy: boolean;
  error?: CombinedError | false | null;
}) {
  return (
    <>
      <div className="row">
        <button type="submit" className="primary" disabled={busy}>
          {label}
        </button>
      </div>
      {error && <ErrorNotice error={error} />}
    </>
  );
}
