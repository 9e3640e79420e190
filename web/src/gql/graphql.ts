/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
export type AssetKind =
  | 'EVALUATION_SUITE'
  | 'MODEL_CONFIG'
  | 'PROMPT_TEMPLATE'
  | 'RUBRIC'
  | 'TOOL_SCHEMA';

export type BindingRole =
  | 'MODEL_CONFIG'
  | 'PROMPT_TEMPLATE'
  | 'RUBRIC'
  | 'TOOLS';

export type CohortKind =
  | 'RELEASE'
  | 'VARIANT';

export type CohortOverrideInput = {
  assetVersionId: string;
  role: BindingRole;
};

/** RELEASE takes `releaseId`; VARIANT `baseReleaseId` + overrides. */
export type ComparisonCohortInput = {
  baseReleaseId?: string | null | undefined;
  kind: CohortKind;
  label?: string | null | undefined;
  overrides?: Array<CohortOverrideInput> | null | undefined;
  releaseId?: string | null | undefined;
};

export type ComparisonSampleInput = {
  seed?: number;
  size: number;
};

export type ComparisonStatus =
  | 'CANCELLED'
  | 'DONE'
  | 'FAILED'
  | 'RUNNING'
  | 'SETUP';

/** Cohort 0 is the candidate; every other cohort is a baseline. */
export type CreateComparisonInput = {
  budgetCapCents?: number | null | undefined;
  /** Check specs; default `[{"kind": "CONTAINS"}]`. */
  checks?: unknown;
  cohorts: Array<ComparisonCohortInput>;
  datasetId?: string | null | undefined;
  datasetVersionId?: string | null | undefined;
  /** The gate's ε: a change must exceed it (points). */
  epsilonPoints?: number;
  experimentId?: string | null | undefined;
  label?: string | null | undefined;
  missingFieldPolicy?: MissingFieldPolicy;
  pairwise?: PairwiseInput | null | undefined;
  sample?: ComparisonSampleInput | null | undefined;
  split?: Split;
  /** NO_CHANGE needs the interval for Δ within ± this (points). */
  targetEffectPoints?: number;
  trialsPerCase?: number;
  variables?: Array<VariableMappingInput> | null | undefined;
};

/** OPEN while cases are appended; SEALED never changes again. */
export type DatasetVersionState =
  | 'DISCARDED'
  | 'OPEN'
  | 'SEALED';

/** LEAVE_OUT runs only cases having every mapped field; REFUSE refuses any gap. */
export type MissingFieldPolicy =
  | 'LEAVE_OUT'
  | 'REFUSE';

export type PairwiseInput = {
  judgeModelConfigVersionId: string;
  rubricVersionId: string;
};

export type PreviewBlockerCode =
  | 'CONNECTION_NOT_READY'
  | 'EMPTY_SELECTION'
  | 'HOSTED_RUNS_OFF'
  | 'MISSING_FIELDS'
  | 'OVER_CALL_LIMIT'
  | 'ROLE_TOO_LOW'
  | 'SAME_CONFIGURATION';

export type PreviewWarningCode =
  | 'CASES_LEFT_OUT'
  | 'FEW_TRIALS'
  | 'HOLDOUT_LOOKS'
  | 'NO_VERDICT';

export type Role =
  | 'ADMIN'
  | 'MEMBER'
  | 'OWNER'
  | 'VIEWER';

/** DEV to iterate on; HOLDOUT kept back. */
export type Split =
  | 'DEV'
  | 'HOLDOUT';

export type StopReason =
  | 'BUDGET_CAP'
  | 'COMPLETED'
  | 'CONNECTION_CAP'
  | 'DAILY_BUDGET';

export type VariableMappingInput = {
  /** `input`, `input.<field>…` or `expected…`. */
  path: string;
  variable: string;
};

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

export type ComparisonRowFieldsFragment = { id: string, label: string | null, status: ComparisonStatus, stopReason: StopReason | null, createdAt: string, spentCentsSoFar: number, verdictState: VerdictState, cohorts: Array<{ cohortIndex: number, label: string, isCandidate: boolean, passRate: number | null }>, scorecard: { verdicts: Array<{ baselineCohortIndex: number, outcome: VerdictOutcome, summary: string }> } | null, progress: { seq: number, doneCalls: number, totalCalls: number } };

export type ComparisonsListQueryVariables = Exact<{
  first: number;
  after?: string | null | undefined;
  status?: ComparisonStatus | null | undefined;
}>;


export type ComparisonsListQuery = { comparisons: { totalCount: number, edges: Array<{ cursor: string, node: { id: string, label: string | null, status: ComparisonStatus, stopReason: StopReason | null, createdAt: string, spentCentsSoFar: number, verdictState: VerdictState, cohorts: Array<{ cohortIndex: number, label: string, isCandidate: boolean, passRate: number | null }>, scorecard: { verdicts: Array<{ baselineCohortIndex: number, outcome: VerdictOutcome, summary: string }> } | null, progress: { seq: number, doneCalls: number, totalCalls: number } } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type ComparisonRowQueryVariables = Exact<{
  id: string;
}>;


export type ComparisonRowQuery = { comparison: { id: string, label: string | null, status: ComparisonStatus, stopReason: StopReason | null, createdAt: string, spentCentsSoFar: number, verdictState: VerdictState, cohorts: Array<{ cohortIndex: number, label: string, isCandidate: boolean, passRate: number | null }>, scorecard: { verdicts: Array<{ baselineCohortIndex: number, outcome: VerdictOutcome, summary: string }> } | null, progress: { seq: number, doneCalls: number, totalCalls: number } } };

export type RowProgressSubscriptionVariables = Exact<{
  id: string;
  afterSeq?: number | null | undefined;
}>;


export type RowProgressSubscription = { comparisonProgress: { seq: number, status: ComparisonStatus, doneCalls: number, totalCalls: number, spentCentsSoFar: number } };

export type SetupChoicesQueryVariables = Exact<{ [key: string]: never; }>;


export type SetupChoicesQuery = { releases: { pageInfo: { hasNextPage: boolean }, edges: Array<{ node: { id: string, name: string } }> }, datasets: { pageInfo: { hasNextPage: boolean }, edges: Array<{ node: { id: string, name: string, latestVersion: { id: string, number: number, caseCount: number } | null, versions: Array<{ id: string, number: number, state: DatasetVersionState, caseCount: number, caseCounts: { dev: number, holdout: number } }> } }> } };

export type AssetVersionsOfKindQueryVariables = Exact<{
  kind: AssetKind;
}>;


export type AssetVersionsOfKindQuery = { assets: { edges: Array<{ node: { id: string, name: string, builtIn: boolean, versions: Array<{ id: string, number: number }> } }> } };

export type ComparisonPreviewQueryVariables = Exact<{
  input: CreateComparisonInput;
}>;


export type ComparisonPreviewQuery = { comparisonPreview: { datasetVersionNumber: number, split: Split, splitCaseCount: number, caseCount: number, leftOutCount: number, trialsPerCase: number, totalCalls: number, summary: string, canStart: boolean, connections: Array<{ connectionId: string, text: string }>, variables: Array<{ variable: string, text: string }>, warnings: Array<{ code: PreviewWarningCode, message: string }>, blockers: Array<{ code: PreviewBlockerCode, message: string }> } };

export type CreateComparisonMutationVariables = Exact<{
  input: CreateComparisonInput;
}>;


export type CreateComparisonMutation = { createComparison: { id: string } };

export type StartComparisonMutationVariables = Exact<{
  id: string;
}>;


export type StartComparisonMutation = { startComparison: { id: string, status: ComparisonStatus } };

export const ComparisonRowFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ComparisonRowFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Comparison"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"label"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"stopReason"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"spentCentsSoFar"}},{"kind":"Field","name":{"kind":"Name","value":"verdictState"}},{"kind":"Field","name":{"kind":"Name","value":"cohorts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cohortIndex"}},{"kind":"Field","name":{"kind":"Name","value":"label"}},{"kind":"Field","name":{"kind":"Name","value":"isCandidate"}},{"kind":"Field","name":{"kind":"Name","value":"passRate"}}]}},{"kind":"Field","name":{"kind":"Name","value":"scorecard"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"verdicts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"baselineCohortIndex"}},{"kind":"Field","name":{"kind":"Name","value":"outcome"}},{"kind":"Field","name":{"kind":"Name","value":"summary"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"progress"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"doneCalls"}},{"kind":"Field","name":{"kind":"Name","value":"totalCalls"}}]}}]}}]} as unknown as DocumentNode<ComparisonRowFieldsFragment, unknown>;
export const MeDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Me"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"me"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"member"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"workspace"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"settings"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"allowSelfSignOff"}}]}}]}}]}}]}}]} as unknown as DocumentNode<MeQuery, MeQueryVariables>;
export const ComparisonsListDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ComparisonsList"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"status"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ComparisonStatus"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"comparisons"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"status"},"value":{"kind":"Variable","name":{"kind":"Name","value":"status"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ComparisonRowFields"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ComparisonRowFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Comparison"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"label"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"stopReason"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"spentCentsSoFar"}},{"kind":"Field","name":{"kind":"Name","value":"verdictState"}},{"kind":"Field","name":{"kind":"Name","value":"cohorts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cohortIndex"}},{"kind":"Field","name":{"kind":"Name","value":"label"}},{"kind":"Field","name":{"kind":"Name","value":"isCandidate"}},{"kind":"Field","name":{"kind":"Name","value":"passRate"}}]}},{"kind":"Field","name":{"kind":"Name","value":"scorecard"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"verdicts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"baselineCohortIndex"}},{"kind":"Field","name":{"kind":"Name","value":"outcome"}},{"kind":"Field","name":{"kind":"Name","value":"summary"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"progress"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"doneCalls"}},{"kind":"Field","name":{"kind":"Name","value":"totalCalls"}}]}}]}}]} as unknown as DocumentNode<ComparisonsListQuery, ComparisonsListQueryVariables>;
export const ComparisonRowDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ComparisonRow"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"comparison"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ComparisonRowFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ComparisonRowFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Comparison"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"label"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"stopReason"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"spentCentsSoFar"}},{"kind":"Field","name":{"kind":"Name","value":"verdictState"}},{"kind":"Field","name":{"kind":"Name","value":"cohorts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cohortIndex"}},{"kind":"Field","name":{"kind":"Name","value":"label"}},{"kind":"Field","name":{"kind":"Name","value":"isCandidate"}},{"kind":"Field","name":{"kind":"Name","value":"passRate"}}]}},{"kind":"Field","name":{"kind":"Name","value":"scorecard"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"verdicts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"baselineCohortIndex"}},{"kind":"Field","name":{"kind":"Name","value":"outcome"}},{"kind":"Field","name":{"kind":"Name","value":"summary"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"progress"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"doneCalls"}},{"kind":"Field","name":{"kind":"Name","value":"totalCalls"}}]}}]}}]} as unknown as DocumentNode<ComparisonRowQuery, ComparisonRowQueryVariables>;
export const RowProgressDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"RowProgress"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"afterSeq"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"comparisonProgress"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"afterSeq"},"value":{"kind":"Variable","name":{"kind":"Name","value":"afterSeq"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"doneCalls"}},{"kind":"Field","name":{"kind":"Name","value":"totalCalls"}},{"kind":"Field","name":{"kind":"Name","value":"spentCentsSoFar"}}]}}]}}]} as unknown as DocumentNode<RowProgressSubscription, RowProgressSubscriptionVariables>;
export const SetupChoicesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"SetupChoices"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"releases"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"100"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"datasets"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"100"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"latestVersion"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"number"}},{"kind":"Field","name":{"kind":"Name","value":"caseCount"}}]}},{"kind":"Field","name":{"kind":"Name","value":"versions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"number"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"caseCount"}},{"kind":"Field","name":{"kind":"Name","value":"caseCounts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dev"}},{"kind":"Field","name":{"kind":"Name","value":"holdout"}}]}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<SetupChoicesQuery, SetupChoicesQueryVariables>;
export const AssetVersionsOfKindDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AssetVersionsOfKind"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"kind"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"AssetKind"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"assets"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"kind"},"value":{"kind":"Variable","name":{"kind":"Name","value":"kind"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"100"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"builtIn"}},{"kind":"Field","name":{"kind":"Name","value":"versions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"number"}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<AssetVersionsOfKindQuery, AssetVersionsOfKindQueryVariables>;
export const ComparisonPreviewDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ComparisonPreview"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateComparisonInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"comparisonPreview"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"datasetVersionNumber"}},{"kind":"Field","name":{"kind":"Name","value":"split"}},{"kind":"Field","name":{"kind":"Name","value":"splitCaseCount"}},{"kind":"Field","name":{"kind":"Name","value":"caseCount"}},{"kind":"Field","name":{"kind":"Name","value":"leftOutCount"}},{"kind":"Field","name":{"kind":"Name","value":"trialsPerCase"}},{"kind":"Field","name":{"kind":"Name","value":"totalCalls"}},{"kind":"Field","name":{"kind":"Name","value":"summary"}},{"kind":"Field","name":{"kind":"Name","value":"canStart"}},{"kind":"Field","name":{"kind":"Name","value":"connections"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"connectionId"}},{"kind":"Field","name":{"kind":"Name","value":"text"}}]}},{"kind":"Field","name":{"kind":"Name","value":"variables"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"variable"}},{"kind":"Field","name":{"kind":"Name","value":"text"}}]}},{"kind":"Field","name":{"kind":"Name","value":"warnings"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}},{"kind":"Field","name":{"kind":"Name","value":"blockers"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<ComparisonPreviewQuery, ComparisonPreviewQueryVariables>;
export const CreateComparisonDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateComparison"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateComparisonInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createComparison"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]} as unknown as DocumentNode<CreateComparisonMutation, CreateComparisonMutationVariables>;
export const StartComparisonDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"StartComparison"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"startComparison"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"background"},"value":{"kind":"BooleanValue","value":true}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]} as unknown as DocumentNode<StartComparisonMutation, StartComparisonMutationVariables>;