/* eslint-disable */
import * as types from './graphql';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  query Me {\n    me {\n      role\n      member {\n        id\n        name\n      }\n      workspace {\n        id\n        name\n        settings {\n          allowSelfSignOff\n        }\n      }\n    }\n  }\n": typeof types.MeDocument,
    "\n  fragment ComparisonRowFields on Comparison {\n    id\n    label\n    status\n    stopReason\n    createdAt\n    spentCentsSoFar\n    verdictState\n    cohorts {\n      cohortIndex\n      label\n      isCandidate\n      passRate\n    }\n    scorecard {\n      verdicts {\n        baselineCohortIndex\n        outcome\n        summary\n      }\n    }\n    progress {\n      seq\n      doneCalls\n      totalCalls\n    }\n  }\n": typeof types.ComparisonRowFieldsFragmentDoc,
    "\n  query ComparisonsList($first: Int!, $after: String, $status: ComparisonStatus) {\n    comparisons(first: $first, after: $after, status: $status) {\n      totalCount\n      edges {\n        cursor\n        node {\n          ...ComparisonRowFields\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": typeof types.ComparisonsListDocument,
    "\n  query ComparisonRow($id: ID!) {\n    comparison(id: $id) {\n      ...ComparisonRowFields\n    }\n  }\n": typeof types.ComparisonRowDocument,
    "\n  subscription RowProgress($id: ID!, $afterSeq: Int) {\n    comparisonProgress(id: $id, afterSeq: $afterSeq) {\n      seq\n      status\n      doneCalls\n      totalCalls\n      spentCentsSoFar\n    }\n  }\n": typeof types.RowProgressDocument,
    "\n  query SetupChoices {\n    releases(first: 100) {\n      pageInfo {\n        hasNextPage\n      }\n      edges {\n        node {\n          id\n          name\n        }\n      }\n    }\n    datasets(first: 100) {\n      pageInfo {\n        hasNextPage\n      }\n      edges {\n        node {\n          id\n          name\n          latestVersion {\n            id\n            number\n            caseCount\n          }\n          versions {\n            id\n            number\n            state\n            caseCount\n            caseCounts {\n              dev\n              holdout\n            }\n          }\n        }\n      }\n    }\n  }\n": typeof types.SetupChoicesDocument,
    "\n  query AssetVersionsOfKind($kind: AssetKind!) {\n    assets(kind: $kind, first: 100) {\n      edges {\n        node {\n          id\n          name\n          builtIn\n          versions {\n            id\n            number\n          }\n        }\n      }\n    }\n  }\n": typeof types.AssetVersionsOfKindDocument,
    "\n  query ComparisonPreview($input: CreateComparisonInput!) {\n    comparisonPreview(input: $input) {\n      datasetVersionNumber\n      split\n      splitCaseCount\n      caseCount\n      leftOutCount\n      trialsPerCase\n      totalCalls\n      summary\n      canStart\n      connections {\n        connectionId\n        text\n      }\n      variables {\n        variable\n        text\n      }\n      warnings {\n        code\n        message\n      }\n      blockers {\n        code\n        message\n      }\n    }\n  }\n": typeof types.ComparisonPreviewDocument,
    "\n  mutation CreateComparison($input: CreateComparisonInput!) {\n    createComparison(input: $input) {\n      id\n    }\n  }\n": typeof types.CreateComparisonDocument,
    "\n  mutation StartComparison($id: ID!) {\n    startComparison(id: $id, background: true) {\n      id\n      status\n    }\n  }\n": typeof types.StartComparisonDocument,
};
const documents: Documents = {
    "\n  query Me {\n    me {\n      role\n      member {\n        id\n        name\n      }\n      workspace {\n        id\n        name\n        settings {\n          allowSelfSignOff\n        }\n      }\n    }\n  }\n": types.MeDocument,
    "\n  fragment ComparisonRowFields on Comparison {\n    id\n    label\n    status\n    stopReason\n    createdAt\n    spentCentsSoFar\n    verdictState\n    cohorts {\n      cohortIndex\n      label\n      isCandidate\n      passRate\n    }\n    scorecard {\n      verdicts {\n        baselineCohortIndex\n        outcome\n        summary\n      }\n    }\n    progress {\n      seq\n      doneCalls\n      totalCalls\n    }\n  }\n": types.ComparisonRowFieldsFragmentDoc,
    "\n  query ComparisonsList($first: Int!, $after: String, $status: ComparisonStatus) {\n    comparisons(first: $first, after: $after, status: $status) {\n      totalCount\n      edges {\n        cursor\n        node {\n          ...ComparisonRowFields\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": types.ComparisonsListDocument,
    "\n  query ComparisonRow($id: ID!) {\n    comparison(id: $id) {\n      ...ComparisonRowFields\n    }\n  }\n": types.ComparisonRowDocument,
    "\n  subscription RowProgress($id: ID!, $afterSeq: Int) {\n    comparisonProgress(id: $id, afterSeq: $afterSeq) {\n      seq\n      status\n      doneCalls\n      totalCalls\n      spentCentsSoFar\n    }\n  }\n": types.RowProgressDocument,
    "\n  query SetupChoices {\n    releases(first: 100) {\n      pageInfo {\n        hasNextPage\n      }\n      edges {\n        node {\n          id\n          name\n        }\n      }\n    }\n    datasets(first: 100) {\n      pageInfo {\n        hasNextPage\n      }\n      edges {\n        node {\n          id\n          name\n          latestVersion {\n            id\n            number\n            caseCount\n          }\n          versions {\n            id\n            number\n            state\n            caseCount\n            caseCounts {\n              dev\n              holdout\n            }\n          }\n        }\n      }\n    }\n  }\n": types.SetupChoicesDocument,
    "\n  query AssetVersionsOfKind($kind: AssetKind!) {\n    assets(kind: $kind, first: 100) {\n      edges {\n        node {\n          id\n          name\n          builtIn\n          versions {\n            id\n            number\n          }\n        }\n      }\n    }\n  }\n": types.AssetVersionsOfKindDocument,
    "\n  query ComparisonPreview($input: CreateComparisonInput!) {\n    comparisonPreview(input: $input) {\n      datasetVersionNumber\n      split\n      splitCaseCount\n      caseCount\n      leftOutCount\n      trialsPerCase\n      totalCalls\n      summary\n      canStart\n      connections {\n        connectionId\n        text\n      }\n      variables {\n        variable\n        text\n      }\n      warnings {\n        code\n        message\n      }\n      blockers {\n        code\n        message\n      }\n    }\n  }\n": types.ComparisonPreviewDocument,
    "\n  mutation CreateComparison($input: CreateComparisonInput!) {\n    createComparison(input: $input) {\n      id\n    }\n  }\n": types.CreateComparisonDocument,
    "\n  mutation StartComparison($id: ID!) {\n    startComparison(id: $id, background: true) {\n      id\n      status\n    }\n  }\n": types.StartComparisonDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Me {\n    me {\n      role\n      member {\n        id\n        name\n      }\n      workspace {\n        id\n        name\n        settings {\n          allowSelfSignOff\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query Me {\n    me {\n      role\n      member {\n        id\n        name\n      }\n      workspace {\n        id\n        name\n        settings {\n          allowSelfSignOff\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ComparisonRowFields on Comparison {\n    id\n    label\n    status\n    stopReason\n    createdAt\n    spentCentsSoFar\n    verdictState\n    cohorts {\n      cohortIndex\n      label\n      isCandidate\n      passRate\n    }\n    scorecard {\n      verdicts {\n        baselineCohortIndex\n        outcome\n        summary\n      }\n    }\n    progress {\n      seq\n      doneCalls\n      totalCalls\n    }\n  }\n"): (typeof documents)["\n  fragment ComparisonRowFields on Comparison {\n    id\n    label\n    status\n    stopReason\n    createdAt\n    spentCentsSoFar\n    verdictState\n    cohorts {\n      cohortIndex\n      label\n      isCandidate\n      passRate\n    }\n    scorecard {\n      verdicts {\n        baselineCohortIndex\n        outcome\n        summary\n      }\n    }\n    progress {\n      seq\n      doneCalls\n      totalCalls\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ComparisonsList($first: Int!, $after: String, $status: ComparisonStatus) {\n    comparisons(first: $first, after: $after, status: $status) {\n      totalCount\n      edges {\n        cursor\n        node {\n          ...ComparisonRowFields\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"): (typeof documents)["\n  query ComparisonsList($first: Int!, $after: String, $status: ComparisonStatus) {\n    comparisons(first: $first, after: $after, status: $status) {\n      totalCount\n      edges {\n        cursor\n        node {\n          ...ComparisonRowFields\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ComparisonRow($id: ID!) {\n    comparison(id: $id) {\n      ...ComparisonRowFields\n    }\n  }\n"): (typeof documents)["\n  query ComparisonRow($id: ID!) {\n    comparison(id: $id) {\n      ...ComparisonRowFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription RowProgress($id: ID!, $afterSeq: Int) {\n    comparisonProgress(id: $id, afterSeq: $afterSeq) {\n      seq\n      status\n      doneCalls\n      totalCalls\n      spentCentsSoFar\n    }\n  }\n"): (typeof documents)["\n  subscription RowProgress($id: ID!, $afterSeq: Int) {\n    comparisonProgress(id: $id, afterSeq: $afterSeq) {\n      seq\n      status\n      doneCalls\n      totalCalls\n      spentCentsSoFar\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SetupChoices {\n    releases(first: 100) {\n      pageInfo {\n        hasNextPage\n      }\n      edges {\n        node {\n          id\n          name\n        }\n      }\n    }\n    datasets(first: 100) {\n      pageInfo {\n        hasNextPage\n      }\n      edges {\n        node {\n          id\n          name\n          latestVersion {\n            id\n            number\n            caseCount\n          }\n          versions {\n            id\n            number\n            state\n            caseCount\n            caseCounts {\n              dev\n              holdout\n            }\n          }\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query SetupChoices {\n    releases(first: 100) {\n      pageInfo {\n        hasNextPage\n      }\n      edges {\n        node {\n          id\n          name\n        }\n      }\n    }\n    datasets(first: 100) {\n      pageInfo {\n        hasNextPage\n      }\n      edges {\n        node {\n          id\n          name\n          latestVersion {\n            id\n            number\n            caseCount\n          }\n          versions {\n            id\n            number\n            state\n            caseCount\n            caseCounts {\n              dev\n              holdout\n            }\n          }\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AssetVersionsOfKind($kind: AssetKind!) {\n    assets(kind: $kind, first: 100) {\n      edges {\n        node {\n          id\n          name\n          builtIn\n          versions {\n            id\n            number\n          }\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query AssetVersionsOfKind($kind: AssetKind!) {\n    assets(kind: $kind, first: 100) {\n      edges {\n        node {\n          id\n          name\n          builtIn\n          versions {\n            id\n            number\n          }\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ComparisonPreview($input: CreateComparisonInput!) {\n    comparisonPreview(input: $input) {\n      datasetVersionNumber\n      split\n      splitCaseCount\n      caseCount\n      leftOutCount\n      trialsPerCase\n      totalCalls\n      summary\n      canStart\n      connections {\n        connectionId\n        text\n      }\n      variables {\n        variable\n        text\n      }\n      warnings {\n        code\n        message\n      }\n      blockers {\n        code\n        message\n      }\n    }\n  }\n"): (typeof documents)["\n  query ComparisonPreview($input: CreateComparisonInput!) {\n    comparisonPreview(input: $input) {\n      datasetVersionNumber\n      split\n      splitCaseCount\n      caseCount\n      leftOutCount\n      trialsPerCase\n      totalCalls\n      summary\n      canStart\n      connections {\n        connectionId\n        text\n      }\n      variables {\n        variable\n        text\n      }\n      warnings {\n        code\n        message\n      }\n      blockers {\n        code\n        message\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateComparison($input: CreateComparisonInput!) {\n    createComparison(input: $input) {\n      id\n    }\n  }\n"): (typeof documents)["\n  mutation CreateComparison($input: CreateComparisonInput!) {\n    createComparison(input: $input) {\n      id\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation StartComparison($id: ID!) {\n    startComparison(id: $id, background: true) {\n      id\n      status\n    }\n  }\n"): (typeof documents)["\n  mutation StartComparison($id: ID!) {\n    startComparison(id: $id, background: true) {\n      id\n      status\n    }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;