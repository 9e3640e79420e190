/**
 * `/datasets`: the workspace's datasets and the built-ins, with their latest sealed version;
 * "Upload dataset" → `dialog` "Upload dataset".
 */
import { Link } from "react-router";
import { Ago } from "../../components/Ago";
import type { Column } from "../../components/columns";
import { ListPage, type ListActionProps } from "../../components/ListPage";
import { graphql } from "../../gql";
import type { DatasetsPageQuery } from "../../gql/graphql";
import { UploadDialog } from "./UploadDialog";
import { count } from "../../lib/format";

const DatasetsPageQueryDocument = graphql(`
  query DatasetsPage($first: Int!, $after: String) {
    datasets(first: $first, after: $after) {
      totalCount
      pageInfo { ...PageInfoFields }
      edges { node { id name builtIn createdAt latestVersion { id number caseCount sealedAt } } }
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

/** "Upload dataset": an upload that makes a new dataset. */
function NewDatasetDialog(props: ListActionProps) {
  return <UploadDialog datasetId={null} title="Upload dataset" {...props} />;
}

export function DatasetsPage() {
  return (
    <ListPage
      title="Datasets"
      what="datasets"
      action={{ label: "Upload dataset", needs: "MEMBER", dialog: NewDatasetDialog }}
      columns={COLUMNS}
      query={DatasetsPageQueryDocument}
      variables={{}}
      select={(data) => data.datasets}
      empty="No datasets yet: Upload dataset makes one."
    />
  );
}
