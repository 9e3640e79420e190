import type { SetupChoicesQuery } from "../../gql/graphql";
import { count } from "../../lib/format";
import type { SetupDraft } from "./setupDraft";

type Dataset = SetupChoicesQuery["datasets"]["edges"][number]["node"];

function countWords(n: number): string {
  return `${count(n)} ${n === 1 ? "case" : "cases"}`;
}

/** "On dataset" (name, cases, latest version) and its sealed "Version" (latest by default). */
export function DatasetFields({
  draft,
  datasets,
  onChange,
}: {
  draft: SetupDraft;
  datasets: readonly Dataset[];
  onChange: (draft: SetupDraft) => void;
}) {
  const dataset = datasets.find((d) => d.id === draft.datasetId);
  const sealed = (dataset?.versions ?? []).filter((v) => v.state === "SEALED");
  return (
    <div className="row">
      <label className="field">
        On dataset
        <select
          value={draft.datasetId}
          onChange={(e) => {
            const chosen = datasets.find((d) => d.id === e.target.value);
            onChange({
              ...draft,
              datasetId: e.target.value,
              datasetVersionId: chosen?.latestVersion?.id ?? "",
            });
          }}
        >
          <option value="">Choose a dataset</option>
          {datasets.map((d) => (
            <option key={d.id} value={d.id} disabled={!d.latestVersion}>
              {d.latestVersion
                ? `${d.name} — ${countWords(d.latestVersion.caseCount)}, v${d.latestVersion.number}`
                : `${d.name} — no sealed version yet`}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        Version
        <select
          value={draft.datasetVersionId}
          disabled={!dataset}
          onChange={(e) => onChange({ ...draft, datasetVersionId: e.target.value })}
        >
          {!dataset && <option value="">Choose a dataset first</option>}
          {[...sealed]
            .sort((a, b) => b.number - a.number)
            .map((v) => (
              <option key={v.id} value={v.id}>
                v{v.number} — {countWords(v.caseCount)} ({v.caseCounts.dev} dev,{" "}
                {v.caseCounts.holdout} holdout)
              </option>
            ))}
        </select>
      </label>
    </div>
  );
}
