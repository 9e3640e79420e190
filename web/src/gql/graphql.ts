/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
export type Adequacy =
  | 'ADEQUATE'
  | 'INSUFFICIENT'
  | 'UNDERPOWERED';

/** Failure analysis on majority outcomes (seed 000); INCOMPLETE: not usable. */
export type CaseClassification =
  | 'AGREE'
  | 'BOTH_WRONG'
  | 'IMPROVED'
  | 'INCOMPLETE'
  | 'REGRESSED';

/** REGRESSIONS (the default), IMPROVEMENTS, DIVERGED (either), ALL. */
export type CaseFilter =
  | 'ALL'
  | 'DIVERGED'
  | 'IMPROVEMENTS'
  | 'REGRESSIONS';

export type CheckKind =
  | 'CONTAINS'
  | 'EXACT_MATCH'
  | 'JSON_SCHEMA'
  | 'JUDGE_RUBRIC'
  | 'TOOL_CALL';

export type CohortState =
  | 'DONE'
  | 'QUEUED'
  | 'RUNNING'
  | 'STOPPED';

export type ComparisonStatus =
  | 'CANCELLED'
  | 'DONE'
  | 'FAILED'
  | 'RUNNING'
  | 'SETUP';

export type MetricDirection =
  | 'HIGHER_IS_BETTER'
  | 'LOWER_IS_BETTER';

export type Role =
  | 'ADMIN'
  | 'MEMBER'
  | 'OWNER'
  | 'VIEWER';

/** APPROVE → PROMOTE, HOLD → HOLD, REQUEST_CHANGES → INCONCLUSIVE. */
export type SignOffDecision =
  | 'APPROVE'
  | 'HOLD'
  | 'REQUEST_CHANGES';

/** The sign-off's decision. */
export type SignOffVerdict =
  | 'HOLD'
  | 'INCONCLUSIVE'
  | 'PROMOTE';

/** DEV to iterate on; HOLDOUT kept back. */
export type Split =
  | 'DEV'
  | 'HOLDOUT';

export type StopReason =
  | 'BUDGET_CAP'
  | 'COMPLETED'
  | 'CONNECTION_CAP'
  | 'DAILY_BUDGET';

export type VerdictOutcome =
  | 'IMPROVED'
  | 'NO_CHANGE'
  | 'NO_VERDICT'
  | 'REGRESSED';

/** FINALIZED once the scorecard is made. */
export type VerdictState =
  | 'FINALIZED'
  | 'NOT_FINALIZED';

export type MeQueryVariables = Exact<{ [key: string]: never; }>;


export type MeQuery = { me: { role: Role, member: { id: string, name: string }, workspace: { id: string, name: string, settings: { allowSelfSignOff: boolean } } } };

export type ComparisonPageQueryVariables = Exact<{
  id: string;
}>;


export type ComparisonPageQuery = { comparison: { id: string, label: string | null, status: ComparisonStatus, stopReason: StopReason | null, errorCode: string | null, trialsPerCase: number, caseCount: number, budgetCapCents: number | null, spentCentsSoFar: number, createdAt: string, startedAt: string | null, endedAt: string | null, verdictState: VerdictState, verdictErrorCode: string | null, verdict: SignOffVerdict | null, split: Split, datasetVersion: { id: string, datasetId: string, number: number }, experiment: { id: string, name: string, dailyBudgetCents: number | null }, cohorts: Array<{ cohortIndex: number, label: string, isCandidate: boolean, passRate: number | null }>, progress: { seq: number, status: ComparisonStatus, stopReason: StopReason | null, doneCalls: number, totalCalls: number, failedCalls: number, percent: number, etaSeconds: number | null, spentCentsSoFar: number, cohorts: Array<{ cohortIndex: number, state: CohortState }> }, reports: Array<{ id: string, version: number, signOff: { id: string, decision: SignOffDecision } | null }>, cappedConnections: Array<{ id: string, name: string, monthlyCapCents: number | null }> } };

export type ComparisonScorecardQueryVariables = Exact<{
  id: string;
}>;


export type ComparisonScorecardQuery = { comparison: { id: string, scorecard: { usableCases: number, casesNotRun: number, metrics: Array<{ name: string, direction: MetricDirection, winners: Array<number>, values: Array<{ cohortIndex: number, value: number | null }> }>, overallWinner: { cohortIndex: number | null, reason: string | null }, staleness: { days: number, note: string } | null, confidence: Array<{ cohortIndex: number, passRate: number, low: number, high: number, n: number, adequacy: Adequacy, mde: number }>, trials: Array<{ cohortIndex: number, k: number, passHatK: number, passAtK: number, flips: number, failedOrMissingTrials: number }>, failureAnalysis: { improved: number, regressed: number, bothWrong: number, agree: number }, verdicts: Array<{ baselineCohortIndex: number, outcome: VerdictOutcome, summary: string }> } | null } };

export type ComparisonProgressSubscriptionVariables = Exact<{
  id: string;
  afterSeq?: number | null | undefined;
}>;


export type ComparisonProgressSubscription = { comparisonProgress: { seq: number, status: ComparisonStatus, stopReason: StopReason | null, doneCalls: number, totalCalls: number, failedCalls: number, percent: number, etaSeconds: number | null, spentCentsSoFar: number, cohorts: Array<{ cohortIndex: number, state: CohortState }> } };

export type ComparisonCasesQueryVariables = Exact<{
  id: string;
  filter: CaseFilter;
  baseline?: number | null | undefined;
  first: number;
  after?: string | null | undefined;
}>;


export type ComparisonCasesQuery = { comparison: { id: string, cases: { totalCount: number, pageInfo: { hasNextPage: boolean, endCursor: string | null }, edges: Array<{ cursor: string, node: { ordinal: number, datasetItemId: string, classification: CaseClassification, cohorts: Array<{ cohortIndex: number, passed: boolean | null, passFraction: number | null, score: number | null, trials: Array<{ trialIndex: number, passed: boolean | null }> }> } }> } } };

export type ComparisonDatasetNameQueryVariables = Exact<{
  id: string;
}>;


export type ComparisonDatasetNameQuery = { dataset: { id: string, name: string } };

export type ComparisonCaseDebugQueryVariables = Exact<{
  id: string;
  filter: CaseFilter;
  baseline?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type ComparisonCaseDebugQuery = { comparison: { id: string, cases: { edges: Array<{ node: { ordinal: number, datasetItemId: string, input: unknown, expected: unknown, cohorts: Array<{ cohortIndex: number, passed: boolean | null, passFraction: number | null, trials: Array<{ trialIndex: number, passed: boolean | null, output: string | null, latencyMs: number, inputTokens: number, outputTokens: number, costCents: number, errorCode: string | null, checks: Array<{ kind: CheckKind, passed: boolean, score: number }> }> }> } }> } } };

export type StartComparisonMutationVariables = Exact<{
  id: string;
}>;


export type StartComparisonMutation = { startComparison: { id: string, status: ComparisonStatus } };

export type CancelComparisonMutationVariables = Exact<{
  id: string;
}>;


export type CancelComparisonMutation = { cancelComparison: { id: string, status: ComparisonStatus } };

export type RerunComparisonMutationVariables = Exact<{
  id: string;
}>;


export type RerunComparisonMutation = { rerunComparison: { id: string, status: ComparisonStatus } };

export type FinalizeComparisonMutationVariables = Exact<{
  id: string;
}>;


export type FinalizeComparisonMutation = { finalizeComparison: { id: string, verdictState: VerdictState, verdictErrorCode: string | null } };


export const MeDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Me"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"me"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"member"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"workspace"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"settings"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"allowSelfSignOff"}}]}}]}}]}}]}}]} as unknown as DocumentNode<MeQuery, MeQueryVariables>;
export const ComparisonPageDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ComparisonPage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"comparison"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"label"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"stopReason"}},{"kind":"Field","name":{"kind":"Name","value":"errorCode"}},{"kind":"Field","name":{"kind":"Name","value":"trialsPerCase"}},{"kind":"Field","name":{"kind":"Name","value":"caseCount"}},{"kind":"Field","name":{"kind":"Name","value":"budgetCapCents"}},{"kind":"Field","name":{"kind":"Name","value":"spentCentsSoFar"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"startedAt"}},{"kind":"Field","name":{"kind":"Name","value":"endedAt"}},{"kind":"Field","name":{"kind":"Name","value":"verdictState"}},{"kind":"Field","name":{"kind":"Name","value":"verdictErrorCode"}},{"kind":"Field","name":{"kind":"Name","value":"verdict"}},{"kind":"Field","name":{"kind":"Name","value":"split"}},{"kind":"Field","name":{"kind":"Name","value":"datasetVersion"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"datasetId"}},{"kind":"Field","name":{"kind":"Name","value":"number"}}]}},{"kind":"Field","name":{"kind":"Name","value":"experiment"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"dailyBudgetCents"}}]}},{"kind":"Field","name":{"kind":"Name","value":"cohorts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cohortIndex"}},{"kind":"Field","name":{"kind":"Name","value":"label"}},{"kind":"Field","name":{"kind":"Name","value":"isCandidate"}},{"kind":"Field","name":{"kind":"Name","value":"passRate"}}]}},{"kind":"Field","name":{"kind":"Name","value":"progress"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"stopReason"}},{"kind":"Field","name":{"kind":"Name","value":"doneCalls"}},{"kind":"Field","name":{"kind":"Name","value":"totalCalls"}},{"kind":"Field","name":{"kind":"Name","value":"failedCalls"}},{"kind":"Field","name":{"kind":"Name","value":"percent"}},{"kind":"Field","name":{"kind":"Name","value":"etaSeconds"}},{"kind":"Field","name":{"kind":"Name","value":"spentCentsSoFar"}},{"kind":"Field","name":{"kind":"Name","value":"cohorts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cohortIndex"}},{"kind":"Field","name":{"kind":"Name","value":"state"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"reports"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"signOff"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"decision"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"cappedConnections"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"monthlyCapCents"}}]}}]}}]}}]} as unknown as DocumentNode<ComparisonPageQuery, ComparisonPageQueryVariables>;
export const ComparisonScorecardDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ComparisonScorecard"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"comparison"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"scorecard"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"usableCases"}},{"kind":"Field","name":{"kind":"Name","value":"casesNotRun"}},{"kind":"Field","name":{"kind":"Name","value":"metrics"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"direction"}},{"kind":"Field","name":{"kind":"Name","value":"values"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cohortIndex"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"winners"}}]}},{"kind":"Field","name":{"kind":"Name","value":"overallWinner"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cohortIndex"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}}]}},{"kind":"Field","name":{"kind":"Name","value":"staleness"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"days"}},{"kind":"Field","name":{"kind":"Name","value":"note"}}]}},{"kind":"Field","name":{"kind":"Name","value":"confidence"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cohortIndex"}},{"kind":"Field","name":{"kind":"Name","value":"passRate"}},{"kind":"Field","name":{"kind":"Name","value":"low"}},{"kind":"Field","name":{"kind":"Name","value":"high"}},{"kind":"Field","name":{"kind":"Name","value":"n"}},{"kind":"Field","name":{"kind":"Name","value":"adequacy"}},{"kind":"Field","name":{"kind":"Name","value":"mde"}}]}},{"kind":"Field","name":{"kind":"Name","value":"trials"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cohortIndex"}},{"kind":"Field","name":{"kind":"Name","value":"k"}},{"kind":"Field","name":{"kind":"Name","value":"passHatK"}},{"kind":"Field","name":{"kind":"Name","value":"passAtK"}},{"kind":"Field","name":{"kind":"Name","value":"flips"}},{"kind":"Field","name":{"kind":"Name","value":"failedOrMissingTrials"}}]}},{"kind":"Field","name":{"kind":"Name","value":"failureAnalysis"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"improved"}},{"kind":"Field","name":{"kind":"Name","value":"regressed"}},{"kind":"Field","name":{"kind":"Name","value":"bothWrong"}},{"kind":"Field","name":{"kind":"Name","value":"agree"}}]}},{"kind":"Field","name":{"kind":"Name","value":"verdicts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"baselineCohortIndex"}},{"kind":"Field","name":{"kind":"Name","value":"outcome"}},{"kind":"Field","name":{"kind":"Name","value":"summary"}}]}}]}}]}}]}}]} as unknown as DocumentNode<ComparisonScorecardQuery, ComparisonScorecardQueryVariables>;
export const ComparisonProgressDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"ComparisonProgress"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"afterSeq"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"comparisonProgress"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"afterSeq"},"value":{"kind":"Variable","name":{"kind":"Name","value":"afterSeq"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"stopReason"}},{"kind":"Field","name":{"kind":"Name","value":"doneCalls"}},{"kind":"Field","name":{"kind":"Name","value":"totalCalls"}},{"kind":"Field","name":{"kind":"Name","value":"failedCalls"}},{"kind":"Field","name":{"kind":"Name","value":"percent"}},{"kind":"Field","name":{"kind":"Name","value":"etaSeconds"}},{"kind":"Field","name":{"kind":"Name","value":"spentCentsSoFar"}},{"kind":"Field","name":{"kind":"Name","value":"cohorts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cohortIndex"}},{"kind":"Field","name":{"kind":"Name","value":"state"}}]}}]}}]}}]} as unknown as DocumentNode<ComparisonProgressSubscription, ComparisonProgressSubscriptionVariables>;
export const ComparisonCasesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ComparisonCases"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CaseFilter"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"baseline"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"comparison"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"cases"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"baselineCohortIndex"},"value":{"kind":"Variable","name":{"kind":"Name","value":"baseline"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"ordinal"}},{"kind":"Field","name":{"kind":"Name","value":"datasetItemId"}},{"kind":"Field","name":{"kind":"Name","value":"classification"}},{"kind":"Field","name":{"kind":"Name","value":"cohorts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cohortIndex"}},{"kind":"Field","name":{"kind":"Name","value":"passed"}},{"kind":"Field","name":{"kind":"Name","value":"passFraction"}},{"kind":"Field","name":{"kind":"Name","value":"score"}},{"kind":"Field","name":{"kind":"Name","value":"trials"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trialIndex"}},{"kind":"Field","name":{"kind":"Name","value":"passed"}}]}}]}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<ComparisonCasesQuery, ComparisonCasesQueryVariables>;
export const ComparisonDatasetNameDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ComparisonDatasetName"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dataset"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]} as unknown as DocumentNode<ComparisonDatasetNameQuery, ComparisonDatasetNameQueryVariables>;
export const ComparisonCaseDebugDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ComparisonCaseDebug"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CaseFilter"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"baseline"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"comparison"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"cases"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"baselineCohortIndex"},"value":{"kind":"Variable","name":{"kind":"Name","value":"baseline"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"1"}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"ordinal"}},{"kind":"Field","name":{"kind":"Name","value":"datasetItemId"}},{"kind":"Field","name":{"kind":"Name","value":"input"}},{"kind":"Field","name":{"kind":"Name","value":"expected"}},{"kind":"Field","name":{"kind":"Name","value":"cohorts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cohortIndex"}},{"kind":"Field","name":{"kind":"Name","value":"passed"}},{"kind":"Field","name":{"kind":"Name","value":"passFraction"}},{"kind":"Field","name":{"kind":"Name","value":"trials"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trialIndex"}},{"kind":"Field","name":{"kind":"Name","value":"passed"}},{"kind":"Field","name":{"kind":"Name","value":"output"}},{"kind":"Field","name":{"kind":"Name","value":"checks"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"passed"}},{"kind":"Field","name":{"kind":"Name","value":"score"}}]}},{"kind":"Field","name":{"kind":"Name","value":"latencyMs"}},{"kind":"Field","name":{"kind":"Name","value":"inputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"outputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"costCents"}},{"kind":"Field","name":{"kind":"Name","value":"errorCode"}}]}}]}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<ComparisonCaseDebugQuery, ComparisonCaseDebugQueryVariables>;
export const StartComparisonDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"StartComparison"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"startComparison"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"background"},"value":{"kind":"BooleanValue","value":true}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]} as unknown as DocumentNode<StartComparisonMutation, StartComparisonMutationVariables>;
export const CancelComparisonDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CancelComparison"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cancelComparison"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]} as unknown as DocumentNode<CancelComparisonMutation, CancelComparisonMutationVariables>;
export const RerunComparisonDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RerunComparison"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rerunComparison"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]} as unknown as DocumentNode<RerunComparisonMutation, RerunComparisonMutationVariables>;
export const FinalizeComparisonDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"FinalizeComparison"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"finalizeComparison"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"verdictState"}},{"kind":"Field","name":{"kind":"Name","value":"verdictErrorCode"}}]}}]}}]} as unknown as DocumentNode<FinalizeComparisonMutation, FinalizeComparisonMutationVariables>;