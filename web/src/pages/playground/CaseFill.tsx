/** `combobox` "Fill from case": a Dev case of the chosen dataset fills the variables (an
 * object input's field per variable, or the whole input), as a comparison maps them. */
import { useQuery } from "../../lib/query";
import { PlaygroundCasesQuery } from "./playgroundDocuments";

function valueFor(input: unknown, variable: string): string {
  if (input !== null && typeof input === "object" && !Array.isArray(input)) {
    const field = (input as Record<string, unknown>)[variable];
    if (field === undefined || field === null) return "";
    return typeof field === "string" ? field : JSON.stringify(field);
  }
  return typeof input === "string" ? input : JSON.stringify(input);
}

export function CaseFill({
  datasetId,
  variables,
  onFill,
}: {
  datasetId: string;
  variables: string[];
  onFill: (values: Record<string, string>) => void;
}) {
  const [{ data }] = useQuery({ query: PlaygroundCasesQuery, variables: { id: datasetId }, pause: !datasetId });
  const cases = data?.dataset.latestVersion?.cases.edges.map((e) => e.node) ?? [];
  return (
    <label className="field">
      Fill from case
      <select
        value=""
        disabled={!datasetId}
        onChange={(e) => {
          const chosen = cases.find((c) => c.datasetItemId === e.target.value);
          if (chosen) onFill(Object.fromEntries(variables.map((v) => [v, valueFor(chosen.input, v)])));
        }}
      >
        <option value="">{datasetId ? "Choose a case" : "Choose a dataset under Cases from"}</option>
        {cases.map((c) => (
          <option key={c.datasetItemId} value={c.datasetItemId}>
            {c.datasetItemId}
          </option>
        ))}
      </select>
    </label>
  );
}
