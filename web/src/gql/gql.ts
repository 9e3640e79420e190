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
    "\n  mutation ResolveFollowUps($ids: [ID!]!, $note: String!) {\n    resolveFollowUps(ids: $ids, note: $note) {\n      id\n      state\n      note\n      resolvedAt\n      resolvedByMemberId\n    }\n  }\n": typeof types.ResolveFollowUpsDocument,
    "\n  query FollowUpsPage($id: ID!, $first: Int!, $after: String) {\n    report(id: $id) {\n      id\n      followUps(first: $first, after: $after) {\n        totalCount\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n        edges {\n          node {\n            id\n            datasetItemId\n            baselineCohortIndex\n            state\n            note\n          }\n        }\n      }\n    }\n  }\n": typeof types.FollowUpsPageDocument,
    "\n  mutation ReportLink($id: ID!) {\n    reportLink(id: $id) {\n      url\n      expiresAt\n    }\n  }\n": typeof types.ReportLinkDocument,
    "\n  query ReportsRegion($id: ID!) {\n    comparison(id: $id) {\n      id\n      verdict\n      cohorts {\n        cohortIndex\n        label\n      }\n      reports {\n        id\n        version\n        createdAt\n        createdByMemberId\n        isLatest\n        signOff {\n          id\n          decision\n          verdict\n          override\n          overrideJustification\n          signerMemberId\n          signerRole\n          createdAt\n        }\n      }\n    }\n    members(first: 100) {\n      edges {\n        node {\n          id\n          name\n        }\n      }\n    }\n  }\n": typeof types.ReportsRegionDocument,
    "\n  mutation GenerateReport($comparisonId: ID!) {\n    generateReport(comparisonId: $comparisonId) {\n      id\n      version\n    }\n  }\n": typeof types.GenerateReportDocument,
    "\n  mutation SignOff(\n    $reportId: ID!\n    $decision: SignOffDecision!\n    $override: Boolean!\n    $justification: String\n  ) {\n    signOff(\n      reportId: $reportId\n      decision: $decision\n      override: $override\n      overrideJustification: $justification\n    ) {\n      id\n      decision\n      verdict\n      comparison {\n        id\n        verdict\n      }\n    }\n  }\n": typeof types.SignOffDocument,
};
const documents: Documents = {
    "\n  query Me {\n    me {\n      role\n      member {\n        id\n        name\n      }\n      workspace {\n        id\n        name\n        settings {\n          allowSelfSignOff\n        }\n      }\n    }\n  }\n": types.MeDocument,
    "\n  mutation ResolveFollowUps($ids: [ID!]!, $note: String!) {\n    resolveFollowUps(ids: $ids, note: $note) {\n      id\n      state\n      note\n      resolvedAt\n      resolvedByMemberId\n    }\n  }\n": types.ResolveFollowUpsDocument,
    "\n  query FollowUpsPage($id: ID!, $first: Int!, $after: String) {\n    report(id: $id) {\n      id\n      followUps(first: $first, after: $after) {\n        totalCount\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n        edges {\n          node {\n            id\n            datasetItemId\n            baselineCohortIndex\n            state\n            note\n          }\n        }\n      }\n    }\n  }\n": types.FollowUpsPageDocument,
    "\n  mutation ReportLink($id: ID!) {\n    reportLink(id: $id) {\n      url\n      expiresAt\n    }\n  }\n": types.ReportLinkDocument,
    "\n  query ReportsRegion($id: ID!) {\n    comparison(id: $id) {\n      id\n      verdict\n      cohorts {\n        cohortIndex\n        label\n      }\n      reports {\n        id\n        version\n        createdAt\n        createdByMemberId\n        isLatest\n        signOff {\n          id\n          decision\n          verdict\n          override\n          overrideJustification\n          signerMemberId\n          signerRole\n          createdAt\n        }\n      }\n    }\n    members(first: 100) {\n      edges {\n        node {\n          id\n          name\n        }\n      }\n    }\n  }\n": types.ReportsRegionDocument,
    "\n  mutation GenerateReport($comparisonId: ID!) {\n    generateReport(comparisonId: $comparisonId) {\n      id\n      version\n    }\n  }\n": types.GenerateReportDocument,
    "\n  mutation SignOff(\n    $reportId: ID!\n    $decision: SignOffDecision!\n    $override: Boolean!\n    $justification: String\n  ) {\n    signOff(\n      reportId: $reportId\n      decision: $decision\n      override: $override\n      overrideJustification: $justification\n    ) {\n      id\n      decision\n      verdict\n      comparison {\n        id\n        verdict\n      }\n    }\n  }\n": types.SignOffDocument,
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
export function graphql(source: "\n  mutation ResolveFollowUps($ids: [ID!]!, $note: String!) {\n    resolveFollowUps(ids: $ids, note: $note) {\n      id\n      state\n      note\n      resolvedAt\n      resolvedByMemberId\n    }\n  }\n"): (typeof documents)["\n  mutation ResolveFollowUps($ids: [ID!]!, $note: String!) {\n    resolveFollowUps(ids: $ids, note: $note) {\n      id\n      state\n      note\n      resolvedAt\n      resolvedByMemberId\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query FollowUpsPage($id: ID!, $first: Int!, $after: String) {\n    report(id: $id) {\n      id\n      followUps(first: $first, after: $after) {\n        totalCount\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n        edges {\n          node {\n            id\n            datasetItemId\n            baselineCohortIndex\n            state\n            note\n          }\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query FollowUpsPage($id: ID!, $first: Int!, $after: String) {\n    report(id: $id) {\n      id\n      followUps(first: $first, after: $after) {\n        totalCount\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n        edges {\n          node {\n            id\n            datasetItemId\n            baselineCohortIndex\n            state\n            note\n          }\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ReportLink($id: ID!) {\n    reportLink(id: $id) {\n      url\n      expiresAt\n    }\n  }\n"): (typeof documents)["\n  mutation ReportLink($id: ID!) {\n    reportLink(id: $id) {\n      url\n      expiresAt\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ReportsRegion($id: ID!) {\n    comparison(id: $id) {\n      id\n      verdict\n      cohorts {\n        cohortIndex\n        label\n      }\n      reports {\n        id\n        version\n        createdAt\n        createdByMemberId\n        isLatest\n        signOff {\n          id\n          decision\n          verdict\n          override\n          overrideJustification\n          signerMemberId\n          signerRole\n          createdAt\n        }\n      }\n    }\n    members(first: 100) {\n      edges {\n        node {\n          id\n          name\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query ReportsRegion($id: ID!) {\n    comparison(id: $id) {\n      id\n      verdict\n      cohorts {\n        cohortIndex\n        label\n      }\n      reports {\n        id\n        version\n        createdAt\n        createdByMemberId\n        isLatest\n        signOff {\n          id\n          decision\n          verdict\n          override\n          overrideJustification\n          signerMemberId\n          signerRole\n          createdAt\n        }\n      }\n    }\n    members(first: 100) {\n      edges {\n        node {\n          id\n          name\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation GenerateReport($comparisonId: ID!) {\n    generateReport(comparisonId: $comparisonId) {\n      id\n      version\n    }\n  }\n"): (typeof documents)["\n  mutation GenerateReport($comparisonId: ID!) {\n    generateReport(comparisonId: $comparisonId) {\n      id\n      version\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SignOff(\n    $reportId: ID!\n    $decision: SignOffDecision!\n    $override: Boolean!\n    $justification: String\n  ) {\n    signOff(\n      reportId: $reportId\n      decision: $decision\n      override: $override\n      overrideJustification: $justification\n    ) {\n      id\n      decision\n      verdict\n      comparison {\n        id\n        verdict\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation SignOff(\n    $reportId: ID!\n    $decision: SignOffDecision!\n    $override: Boolean!\n    $justification: String\n  ) {\n    signOff(\n      reportId: $reportId\n      decision: $decision\n      override: $override\n      overrideJustification: $justification\n    ) {\n      id\n      decision\n      verdict\n      comparison {\n        id\n        verdict\n      }\n    }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;