/** The GraphQL documents of human labels: the Judges region, labelling, the review queue. */
import { graphql } from "../../gql";

export const JudgesQuery = graphql(`
  query ComparisonJudges($id: ID!) {
    comparison(id: $id) {
      id
      reviewProgress {
        labelled
        graded
      }
      judgeAgreement {
        checkKey
        labels
        agreement
        kappa
        kappaLow
        kappaHigh
        sensitivity
        sensitivityLow
        sensitivityHigh
        specificity
        specificityLow
        specificityHigh
      }
    }
  }
`);

export const LabelTrialMutation = graphql(`
  mutation LabelTrial($trial: TrialRefInput!, $passed: Boolean!, $note: String) {
    labelTrial(trial: $trial, passed: $passed, note: $note) {
      trial {
        comparisonId
        cohortIndex
        datasetItemId
        trialIndex
      }
      passed
      note
      judgePassed
      createdAt
      labeller {
        id
        name
      }
    }
  }
`);

export const ReviewQueueQuery = graphql(`
  query ReviewQueue($id: ID!, $first: Int) {
    reviewQueue(comparisonId: $id, first: $first) {
      trial {
        comparisonId
        cohortIndex
        datasetItemId
        trialIndex
      }
      input
      expected
      output
    }
    comparison(id: $id) {
      id
      label
      reviewProgress {
        labelled
        graded
      }
      judgeAgreement {
        checkKey
      }
    }
  }
`);
