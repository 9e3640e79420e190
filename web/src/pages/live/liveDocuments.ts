/** The New live comparison form's operations: what the traces offer, and the create. */
import { graphql } from "../../gql";

export const NewLiveChoicesQuery = graphql(`
  query NewLiveChoices {
    workspace {
      id
      settings {
        defaultShipPolicy {
          ...ShipPolicyFormFields
        }
      }
    }
    services: traceStats(groupBy: SERVICE) {
      key
      traces
    }
    releases: traceStats(groupBy: RELEASE) {
      key
      traces
    }
  }
`);

export const CreateLiveComparison = graphql(`
  mutation CreateLiveComparison($input: CreateLiveComparisonInput!) {
    createLiveComparison(input: $input) {
      id
    }
  }
`);
