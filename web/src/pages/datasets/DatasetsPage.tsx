/**
 * `/datasets`: the workspace's datasets and the built-ins, with their latest sealed version;
 * "Upload dataset" → `dialog` "Upload dataset".
 */
import { useState } from "react";
import { Link } from "react-router";
import { Ago } from "../../components/Ago";
import type { Column } from "../../components/columns";
import { ListPage } from "../../components/ListPage";
import { graphql } from "../../gql";
import type { DatasetsPageQuery } from "../../gql/graphql";
import { UploadDialog } from "./UploadDialog";
import { count } from "../../lib/format";

const DatasetsPageQueryDocument = graphql(`
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

type Dataset = DatasetsPageQuery["datasets"]["edges"][number]["node"];

const COLUMNS: Column<Dataset>[] = [
  {
    name: "Dataset",
    cell: (node) => (
      <>
        <Link to={`/datasets/${node.id}`}>{node.name}</Link>
        {node.builtIn && <span className="chip">built-in</span>}
      </>
    ),
  },
  {
    name: "Latest sealed version",
    cell: (node) => (node.latestVersion ? `Version ${node.latestVersion.number}` : "None sealed"),
  },
  {
    name: "Cases",
    className: "num",
    cell: (node) => (node.latestVersion ? count(node.latestVersion.caseCount) : "—"),
  },
  { name: "Created", cell: (node) => <Ago iso={node.createdAt} /> },
];

export function DatasetsPage() {
  const [uploading, setUploading] = useState(false);
  const [revision, setRevision] = useState(0);
  return (
    <ListPage
      title="Datasets"
      what="datasets"
      action={{ label: "Upload dataset", needs: "MEMBER", onClick: () => setUploading(true) }}
      columns={COLUMNS}
      query={DatasetsPageQueryDocument}
      variables={{}}
      select={(data) => data.datasets}
      revision={revision}
      empty="No datasets yet: Upload dataset makes one."
    >
      {uploading && (
        <UploadDialog
          datasetId={null}
          title="Upload dataset"
          onClose={() => setUploading(false)}
          onChanged={() => setRevision((r) => r + 1)}
        />
      )}
    </ListPage>
  );
}
