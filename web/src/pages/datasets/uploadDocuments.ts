/** The dataset upload's operations: the same mutations as `shipwise dataset import`. */
import { graphql } from "../../gql";

export const CreateDataset = graphql(`
  mutation CreateDataset($input: CreateDatasetInput!) {
    createDataset(input: $input) {
      id
    }
  }
`);

export const OpenDatasetVersion = graphql(`
  mutation OpenDatasetVersion($datasetId: ID!) {
    openDatasetVersion(datasetId: $datasetId) {
      id
      number
    }
  }
`);

export const AppendDatasetCases = graphql(`
  mutation AppendDatasetCases($versionId: ID!, $cases: JSON!, $position: Int) {
    appendDatasetCases(versionId: $versionId, cases: $cases, position: $position) {
      caseCount
    }
  }
`);

export const SealDatasetVersion = graphql(`
  mutation SealDatasetVersion($versionId: ID!) {
    sealDatasetVersion(versionId: $versionId) {
      id
      number
      caseCount
      datasetId
    }
  }
`);

export const DiscardDatasetVersion = graphql(`
  mutation DiscardDatasetVersion($versionId: ID!) {
    discardDatasetVersion(versionId: $versionId) {
      id
      state
    }
  }
`);

/** The dataset page's "Discard": the open version alone goes, the dataset stays. */
export const DiscardOpenVersion = graphql(`
  mutation DiscardOpenVersion($versionId: ID!) {
    discardDatasetVersion(versionId: $versionId, keepDataset: true) {
      id
      state
    }
  }
`);
