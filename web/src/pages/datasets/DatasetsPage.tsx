/**
 * `/datasets`: the workspace's datasets and the built-ins, with their latest sealed version;
 * "Upload dataset" → `dialog` "Upload dataset".
 */
import { useState } from "react";
import { Link } from "react-router";
import { RoleButton } from "../../components/RoleButton";
import { UploadDialog } from "./UploadDialog";
import { Ago } from "../../components/Ago";
import { PagedTable } from "../../components/PagedTable";
import { graphql } from "../../gql";
import { count } from "../../lib/format";

const PAGE = 50;

const DatasetsPageQuery = graphql(`
  query DatasetsPage($first: Int!, $after: String) {
    datasets(first: $first, after: $after) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      edges {
        node {
          id
          name
          builtIn
          createdAt
          latestVersion {
            id
            number
            caseCount
            sealedAt
          }
        }
      }
    }
  }
`);

export function DatasetsPage() {
  const [uploading, setUploading] = useState(false);
  const [revision, setRevision] = useState(0);
  return (
    <>
      <div className="row page-head">
        <h1>Datasets</h1>
        <RoleButton needs="MEMBER" className="primary" onClick={() => setUploading(true)}>
          Upload dataset
        </RoleButton>
      </div>
      {uploading && (
        <UploadDialog
          datasetId={null}
          title="Upload dataset"
          onClose={() => setUploading(false)}
          onChanged={() => setRevision((r) => r + 1)}
        />
      )}
      <PagedTable
        label="Datasets"
        what="datasets"
        head={
          <>
            <th scope="col">Dataset</th>
            <th scope="col">Latest sealed version</th>
            <th scope="col" className="num">
              Cases
            </th>
            <th scope="col">Created</th>
          </>
        }
        query={DatasetsPageQuery}
        variables={{}}
        pageSize={PAGE}
        select={(data) => data.datasets}
        columns={4}
        revision={revision}
        empty="No datasets yet: Upload dataset makes one."
      >
        {({ node }) => (
          <tr key={node.id}>
            <td>
              <Link to={`/datasets/${node.id}`}>{node.name}</Link>
              {node.builtIn && <span className="chip">built-in</span>}
            </td>
            <td>{node.latestVersion ? `Version ${node.latestVersion.number}` : "None sealed"}</td>
            <td className="num">{node.latestVersion ? count(node.latestVersion.caseCount) : "—"}</td>
            <td>
              <Ago iso={node.createdAt} />
            </td>
          </tr>
        )}
      </PagedTable>
    </>
  );
}
