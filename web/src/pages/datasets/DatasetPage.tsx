/**
 * `/datasets/:id`: a dataset's versions ("Upload a new version"; for an open one "Seal version
 * N" with what sealing means, and "Discard", which asks first and drops that version alone),
 * and the cases of one version 50 at a time.
 */
import { useId, useState } from "react";
import { useParams } from "react-router";
import { useQuery } from "../../lib/query";
import { RoleButton } from "../../components/RoleButton";
import { enumWords } from "../../lib/words";
import { DiscardVersionDialog } from "./DiscardVersionDialog";
import { OpenVersionNotice } from "./OpenVersionNotice";
import { UploadDialog } from "./UploadDialog";
import { Ago } from "../../components/Ago";
import { ErrorNotice } from "../../components/ErrorNotice";
import { graphql } from "../../gql";
import { count } from "../../lib/format";
import { DatasetCases } from "./DatasetCases";
import { TableScroll } from "../../components/TableScroll";

const DatasetQuery = graphql(`
  query DatasetPage($id: ID!) {
    dataset(id: $id) {
      id
      name
      description
      builtIn
      latestVersion {
        id
      }
      versions {
        id
        number
        state
        caseCount
        caseCounts {
          dev
          holdout
        }
        holdoutLooks
        createdAt
        sealedAt
        contentHash
      }
    }
  }
`);

export function DatasetPage() {
  const { id = "" } = useParams();
  const versionId = useId();
  const [{ data, error }, refetch] = useQuery({ query: DatasetQuery, variables: { id } });
  const [chosen, setChosen] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const [discarding, setDiscarding] = useState<string | null>(null);
  const reload = () => refetch({ requestPolicy: "network-only" });
  if (error && !data) return <ErrorNotice error={error} />;
  if (!data) return <p className="muted">Loading…</p>;
  const dataset = data.dataset;
  const shown = chosen ?? dataset.latestVersion?.id ?? dataset.versions[0]?.id ?? "";
  const open = dataset.versions.find((v) => v.state === "OPEN");
  const toDiscard = dataset.versions.find((v) => v.id === discarding && v.state === "OPEN");
  return (
    <>
      <h1>{dataset.name}</h1>
      {dataset.description && <p>{dataset.description}</p>}
      {!dataset.builtIn && (
        <div className="row">
          <RoleButton needs="MEMBER" onClick={() => setUploading(true)}>
            Upload a new version
          </RoleButton>
        </div>
      )}
      {uploading && (
        <UploadDialog
          datasetId={dataset.id}
          title="Upload a new version"
          onClose={() => setUploading(false)}
          onChanged={reload}
        />
      )}
      {open && <OpenVersionNotice key={open.id} version={open} onSealed={reload} />}
      {toDiscard && (
        <DiscardVersionDialog
          version={toDiscard}
          datasetName={dataset.name}
          onClose={() => setDiscarding(null)}
          onDiscarded={() => {
            setDiscarding(null);
            reload();
          }}
        />
      )}
      <TableScroll>
<table aria-label="Versions">
        <thead>
          <tr>
            <th scope="col">Version</th>
            <th scope="col">State</th>
            <th scope="col" className="num">
              Cases
            </th>
            <th scope="col">Split</th>
            <th scope="col" className="num">
              Holdout looks
            </th>
            <th scope="col">Created</th>
            <th scope="col">Content hash</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {dataset.versions.map((v) => (
            <tr key={v.id}>
              <td>Version {v.number}</td>
              <td>{enumWords(v.state)}</td>
              <td className="num">{count(v.caseCount)}</td>
              <td>
                {count(v.caseCounts.dev)} dev, {count(v.caseCounts.holdout)} holdout
              </td>
              <td className="num">{count(v.holdoutLooks)}</td>
              <td>
                <Ago iso={v.createdAt} />
              </td>
              <td>
                <code>{v.contentHash ? v.contentHash.slice(0, 12) : "—"}</code>
              </td>
              <td>
                {v.state === "OPEN" && (
                  <RoleButton
                    needs="MEMBER"
                    onClick={() => setDiscarding(v.id)}
                  >
                    Discard
                  </RoleButton>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
</TableScroll>
      {dataset.versions.length > 0 && (
        <>
          <h2>Cases</h2>
          <div className="field">
            <label htmlFor={versionId}>Version</label>
            <select id={versionId} value={shown} onChange={(e) => setChosen(e.target.value)}>
              {dataset.versions.map((v) => (
                <option key={v.id} value={v.id}>
                  Version {v.number} ({enumWords(v.state).toLowerCase()})
                </option>
              ))}
            </select>
          </div>
          <DatasetCases key={shown} versionId={shown} />
        </>
      )}
    </>
  );
}
