import { wordDiff } from "../../lib/wordDiff";

/** An output as text; with `reference`, the words it has that the reference has not marked. */
export function DiffText({ text, reference }: { text: string; reference: string | null }) {
  if (reference === null) return <>{text}</>;
  return (
    <>
      {wordDiff(reference, text).map((piece, i) =>
        piece.changed ? (
          <mark key={i} className="diff">
            {piece.text}
          </mark>
        ) : (
          <span key={i}>{piece.text}</span>
        ),
      )}
    </>
  );
}
