/** The GraphQL operations of "Add to dataset" (`/traces/:id`) and "New dataset from traces". */
import { graphql } from "../../gql";

export const WritableDatasetsQuery = graphql(`
  query WritableDatasets {
    datasets(first: 100) {
      edges {
        node {
          id
          name
          builtIn
        }
      }
    }
  }
`);

export const AddTraceToDataset = graphql(`
  mutation AddTraceToDataset($traceId: ID!, $datasetId: ID!, $expected: String) {
    addTraceToDataset(traceId: $traceId, datasetId: $datasetId, expected: $expected) {
      id
      number
      state
      caseCount
    }
  }
`);

export const PreviewDatasetFromTraces = graphql(`
  query PreviewDatasetFromTraces($input: CreateDatasetFromTracesInput!) {
    previewDatasetFromTraces(input: $input) {
      matched
      taken
      duplicates
      withoutInput
      redacted
      withExpected
      strata {
        key
        matched
        taken
      }
    }
  }
`);

export const CreateDatasetFromTraces = graphql(`
  mutation CreateDatasetFromTraces($input: CreateDatasetFromTracesInput!) {
    createDatasetFromTraces(input: $input) {
      taken
      dataset {
        id
        name
      }
      version {
        id
        number
        caseCount
      }
    }
  }
`);
