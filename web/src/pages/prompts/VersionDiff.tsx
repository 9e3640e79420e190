/** A text diff between two versions of one asset: lines removed and added, as text. */
import { diffLines } from "diff";

export function VersionDiff({ from, to }: { from: string; to: string }) {
  const parts = diffLines(from, to);
  const changed = parts.some((p) => p.added || p.removed);
  return (
    <section aria-label="Changes" className="version-diff">
      {!changed && <p className="muted">The two versions read the same.</p>}
      <pre className="text">
        {parts.map((part, i) =>
          part.added ? (
            <ins key={i}>{part.value}</ins>
          ) : part.removed ? (
            <del key={i}>{part.value}</del>
          ) : (
            <span key={i}>{part.value}</span>
          ),
        )}
      </pre>
    </section>
  );
}
