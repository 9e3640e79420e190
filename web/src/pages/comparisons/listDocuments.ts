/** The comparisons list's operations: a page of rows, one row again, and a row's live progress. */
import { graphql } from "../../gql";

export const ComparisonRowFields = graphql(`
  fragment ComparisonRowFields on Comparison {
    id
    label
    status
    stopReason
    createdAt
    spentCentsSoFar
    verdictState
    decision {
      outcome
    }
    cohorts {
      cohortIndex
      label
      isCandidate
      passRate
    }
    scorecard {
      verdicts {
        ...VerdictChipFields
      }
    }
    progress {
      seq
      doneCalls
      totalCalls
    }
  }
`);

export const ComparisonsListQuery = graphql(`
  query ComparisonsList($first: Int!, $after: String, $status: ComparisonStatus) {
    comparisons(first: $first, after: $after, status: $status) {
      totalCount
      edges {
        cursor
        node {
          ...ComparisonRowFields
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);

export const ComparisonRowQuery = graphql(`
  query ComparisonRow($id: ID!) {
    comparison(id: $id) {
      ...ComparisonRowFields
    }
  }
`);

export const RowProgressSubscription = graphql(`
  subscription RowProgress($id: ID!, $afterSeq: Int) {
    comparisonProgress(id: $id, afterSeq: $afterSeq) {
      seq
      status
      doneCalls
      totalCalls
      spentCentsSoFar
    }
  }
`);

/** A page's sign-offs, read beside the page (the list's own document stays as it is):
 * the decision cell names a sign-off as what it is. */
export const ComparisonsSignOffsQuery = graphql(`
  query ComparisonsSignOffs($first: Int!, $after: String, $status: ComparisonStatus) {
    comparisons(first: $first, after: $after, status: $status) {
      edges {
        node {
          id
          reports {
            id
            signOff {
              id
              decision
              signerMemberId
            }
          }
        }
      }
    }
    members(first: 100) {
      edges {
        node {
          id
          name
        }
      }
    }
  }
`);
