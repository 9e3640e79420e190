/** What a ship policy form reads of a `ShipPolicy` (the New comparison form, /settings). */
import { graphql } from "../gql";

export const ShipPolicyFormFields = graphql(`
  fragment ShipPolicyFormFields on ShipPolicy {
    qualityMarginPoints
    alpha
    requireGain
    guardrails {
      metric
      maxIncreasePercent
      maxIncreasePoints
    }
    judge {
      minLabels
      minKappa
    }
  }
`);
