/** `/experiments`: the workspace's experiments, each linking to its runs. */
import { Link } from "react-router";
import { Ago } from "../../components/Ago";
import type { Column } from "../../components/columns";
import { ListPage } from "../../components/ListPage";
import { graphql } from "../../gql";
import type { ExperimentsPageQuery } from "../../gql/graphql";
import { dollars } from "../../lib/format";

const ExperimentsPageQueryDocument = graphql(`
  query ExperimentsPage($first: Int!, $after: String) {
    experiments(first: $first, after: $after) {
      totalCount
      pageInfo { ...PageInfoFields }
      edges { node { id name dailyBudgetCents createdAt } }
    }
  }
`);

type Experiment = ExperimentsPageQuery["experiments"]["edges"][number]["node"];

const COLUMNS: Column<Experiment>[] = [
  {
    name: "Experiment",
    cell: (node) => <Link to={`/experiments/${node.id}`}>{node.name}</Link>,
  },
  {
    name: "Daily budget",
    cell: (node) => (node.dailyBudgetCents === null ? "No cap" : dollars(node.dailyBudgetCents)),
  },
  { name: "Created", cell: (node) => <Ago iso={node.createdAt} /> },
];

export function ExperimentsPage() {
  return (
    <ListPage
      title="Experiments"
      what="experiments"
      columns={COLUMNS}
      query={ExperimentsPageQueryDocument}
      variables={{}}
      select={(data) => data.experiments}
      empty="No experiments yet: a comparison makes one named after its dataset."
    />
  );
}
