import type { CombinedError } from "urql";
import { errorWords } from "../lib/errors";

/** An API error in words with its code; never a stack trace. */
export function ErrorNotice({ error }: { error: CombinedError }) {
  const { message, code } = errorWords(error);
  return (
    <p role="alert" className="error">
      {message}
      {code && <span className="code"> ({code})</span>}
    </p>
  );
}
