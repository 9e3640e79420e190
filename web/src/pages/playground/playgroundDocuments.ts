/** The GraphQL operations of `/playground`. */
import { graphql } from "../../gql";

export const PlaygroundChoicesQuery = graphql(`
  query PlaygroundChoices {
    assets(kind: PROMPT_TEMPLATE, first: 100) {
      edges {
        node {
          id
          name
          builtIn
          gateSettings {
            datasetId
            split
            trialsPerCase
            checks
            shipPolicy {
              ...ShipPolicyFormFields
            }
          }
          versions {
            id
            number
            content
            variables
          }
        }
      }
    }
    modelConnections(first: 100) {
      edges {
        node {
          id
          name
          kind
          status
        }
      }
    }
    datasets(first: 100) {
      edges {
        node {
          id
          name
        }
      }
    }
  }
`);

export const PlaygroundCellFields = graphql(`
  fragment PlaygroundCellFields on PlaygroundCell {
    paneIndex
    caseId
    caseInput
    status
    output
    error
    inputTokens
    outputTokens
    costCents
    latencyMs
    passed
    checks {
      kind
      passed
    }
  }
`);

export const PlaygroundRunMutation = graphql(`
  mutation PlaygroundRun($input: PlaygroundRunInput!) {
    playgroundRun(input: $input) {
      id
      seq
      status
      cells {
        ...PlaygroundCellFields
      }
    }
  }
`);

export const StopPlaygroundRunMutation = graphql(`
  mutation StopPlaygroundRun($id: ID!) {
    stopPlaygroundRun(id: $id) {
      id
      seq
      status
      cells {
        ...PlaygroundCellFields
      }
    }
  }
`);

export const PlaygroundProgressSubscription = graphql(`
  subscription PlaygroundRunProgress($id: ID!) {
    playgroundRunProgress(id: $id) {
      id
      seq
      status
      cells {
        ...PlaygroundCellFields
      }
    }
  }
`);

export const PlaygroundCasesQuery = graphql(`
  query PlaygroundCases($id: ID!) {
    dataset(id: $id) {
      id
      latestVersion {
        id
        cases(split: DEV, first: 20) {
          edges {
            node {
              datasetItemId
              input
            }
          }
        }
      }
    }
  }
`);
