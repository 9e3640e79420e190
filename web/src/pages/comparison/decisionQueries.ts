/** The ship decision of a comparison, read apart from the page's own document (whose direct
 * read stays as it is): the Decision region, the scorecard's differences and the sign-off
 * dialog read it (docs/decision.md). */
import { graphql } from "../../gql";

export const DecisionQuery = graphql(`
  query ComparisonDecision($id: ID!) {
    comparison(id: $id) {
      id
      shipPolicy {
        qualityMarginPoints
        alpha
        registeredAt
        sentence
      }
      decision {
        outcome
        reason
        sentence
        casesNeeded
        usableCases
        level
        criteria {
          baselineCohortIndex
          kind
          metric
          status
          reason
          estimate
          low
          high
          threshold
          corrected
          sentence
        }
      }
      scorecard {
        verdicts {
          baselineCohortIndex
          passRateDeltaPoints
          deltaLow
          deltaHigh
        }
      }
    }
  }
`);

/** Per baseline and tab, how many cases the failure analysis lists (the tabs' own counts). */
export const CaseCountsQuery = graphql(`
  query ComparisonCaseCounts($id: ID!, $baseline: Int!) {
    comparison(id: $id) {
      id
      regressions: cases(filter: REGRESSIONS, baselineCohortIndex: $baseline, first: 0) {
        totalCount
      }
      improvements: cases(filter: IMPROVEMENTS, baselineCohortIndex: $baseline, first: 0) {
        totalCount
      }
      diverged: cases(filter: DIVERGED, baselineCohortIndex: $baseline, first: 0) {
        totalCount
      }
      all: cases(filter: ALL, baselineCohortIndex: $baseline, first: 0) {
        totalCount
      }
    }
  }
`);
