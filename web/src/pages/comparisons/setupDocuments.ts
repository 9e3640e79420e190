/** The setup panel's operations: what to choose from, the preview, creating (starting is the comparison page's). */
import { graphql } from "../../gql";

export const SetupChoicesQuery = graphql(`
  query SetupChoices {
    workspace {
      id
      settings {
        defaultShipPolicy {
          ...ShipPolicyFormFields
        }
      }
    }
    releases(first: 100) {
      pageInfo {
        hasNextPage
      }
      edges {
        node {
          id
          name
        }
      }
    }
    datasets(first: 100) {
      pageInfo {
        hasNextPage
      }
      edges {
        node {
          id
          name
          latestVersion {
            id
            number
            caseCount
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
          }
        }
      }
    }
  }
`);

export const AssetVersionsQuery = graphql(`
  query AssetVersionsOfKind($kind: AssetKind!) {
    assets(kind: $kind, first: 100) {
      edges {
        node {
          id
          name
          builtIn
          versions {
            id
            number
          }
        }
      }
    }
  }
`);

export const PreviewQuery = graphql(`
  query ComparisonPreview($input: CreateComparisonInput!) {
    comparisonPreview(input: $input) {
      datasetVersionNumber
      split
      splitCaseCount
      caseCount
      leftOutCount
      trialsPerCase
      totalCalls
      costBoundCents
      summary
      canStart
      connections {
        connectionId
        text
      }
      variables {
        variable
        text
      }
      warnings {
        code
        message
      }
      blockers {
        code
        message
      }
      shipPolicy {
        sentence
      }
    }
  }
`);

export const CreateComparisonMutation = graphql(`
  mutation CreateComparison($input: CreateComparisonInput!) {
    createComparison(input: $input) {
      id
    }
  }
`);
