/** The GraphQL documents of the comparison page (typed by codegen from schema.graphql). */
import { graphql } from "../../gql";

/** A run's progress as the page shows it: read with the comparison, then live. */
export const ProgressFields = graphql(`
  fragment ProgressFields on ComparisonProgress {
    seq
    status
    stopReason
    doneCalls
    totalCalls
    failedCalls
    percent
    etaSeconds
    spentCentsSoFar
    cohorts {
      cohortIndex
      state
    }
  }
`);

export const ComparisonPageQuery = graphql(`
  query ComparisonPage($id: ID!) {
    comparison(id: $id) {
      id
      label
      status
      stopReason
      errorCode
      trialsPerCase
      caseCount
      budgetCapCents
      spentCentsSoFar
      createdAt
      startedAt
      endedAt
      verdictState
      verdictErrorCode
      verdict
      split
      datasetVersion {
        id
        datasetId
        number
      }
      experiment {
        id
        name
        dailyBudgetCents
      }
      cohorts {
        cohortIndex
        label
        isCandidate
        passRate
      }
      progress {
        ...ProgressFields
      }
      reports {
        id
        version
        signOff {
          id
          decision
        }
      }
      cappedConnections {
        id
        name
        monthlyCapCents
      }
    }
  }
`);

export const ScorecardQuery = graphql(`
  query ComparisonScorecard($id: ID!) {
    comparison(id: $id) {
      id
      scorecard {
        usableCases
        casesNotRun
        metrics {
          name
          direction
          values {
            cohortIndex
            value
          }
          winners
        }
        overallWinner {
          cohortIndex
          reason
        }
        staleness {
          days
          note
        }
        confidence {
          cohortIndex
          passRate
          low
          high
          n
          adequacy
          mde
        }
        trials {
          cohortIndex
          k
          passHatK
          passAtK
          flips
          failedOrMissingTrials
        }
        failureAnalysis {
          improved
          regressed
          bothWrong
          agree
        }
        verdicts {
          ...VerdictChipFields
        }
      }
    }
  }
`);

export const ProgressSubscription = graphql(`
  subscription ComparisonProgress($id: ID!, $afterSeq: Int) {
    comparisonProgress(id: $id, afterSeq: $afterSeq) {
      ...ProgressFields
    }
  }
`);

export const CasesQuery = graphql(`
  query ComparisonCases(
    $id: ID!
    $filter: CaseFilter!
    $baseline: Int
    $first: Int!
    $after: String
  ) {
    comparison(id: $id) {
      id
      cases(filter: $filter, baselineCohortIndex: $baseline, first: $first, after: $after) {
        totalCount
        pageInfo {
          hasNextPage
          endCursor
        }
        edges {
          cursor
          node {
            ordinal
            datasetItemId
            classification
            cohorts {
              cohortIndex
              passed
              passFraction
              score
              trials {
                trialIndex
                passed
                output
                errorCode
              }
            }
          }
        }
      }
    }
  }
`);

export const DatasetNameQuery = graphql(`
  query ComparisonDatasetName($id: ID!) {
    dataset(id: $id) {
      id
      name
    }
  }
`);

/** One case with its trials: the page that starts right after the row before it. */
export const CaseDebugQuery = graphql(`
  query ComparisonCaseDebug(
    $id: ID!
    $filter: CaseFilter!
    $baseline: Int
    $after: String
  ) {
    comparison(id: $id) {
      id
      cases(filter: $filter, baselineCohortIndex: $baseline, first: 1, after: $after) {
        edges {
          node {
            ordinal
            datasetItemId
            input
            expected
            cohorts {
              cohortIndex
              passed
              passFraction
              trials {
                trialIndex
                passed
                output
                checks {
                  kind
                  passed
                  score
                }
                latencyMs
                inputTokens
                outputTokens
                costCents
                errorCode
                trajectory {
                  ...TrajectorySideStep
                }
                labels {
                  passed
                  note
                  createdAt
                  labeller {
                    id
                    name
                  }
                }
              }
            }
          }
        }
      }
    }
  }
`);

export const StartMutation = graphql(`
  mutation StartComparison($id: ID!) {
    startComparison(id: $id, background: true) {
      id
      status
    }
  }
`);

export const CancelMutation = graphql(`
  mutation CancelComparison($id: ID!) {
    cancelComparison(id: $id) {
      id
      status
    }
  }
`);

export const RerunMutation = graphql(`
  mutation RerunComparison($id: ID!) {
    rerunComparison(id: $id) {
      id
      status
    }
  }
`);

export const FinalizeMutation = graphql(`
  mutation FinalizeComparison($id: ID!) {
    finalizeComparison(id: $id) {
      id
      verdictState
      verdictErrorCode
    }
  }
`);

/** What a re-run would run and cost, for Re-run's confirmation. */
export const RerunPreviewQuery = graphql(`
  query RerunPreview($id: ID!) {
    rerunPreview(id: $id) {
      totalCalls
      costBoundCents
      summary
      canStart
      blockers {
        code
        message
      }
    }
  }
`);
