/** The GraphQL operations of `/settings`. */
import { graphql } from "../../gql";

/** What the workspace region shows and saves, read and answered alike. */
export const WorkspaceSettingsFields = graphql(`
  fragment WorkspaceSettingsFields on WorkspaceSettings {
    allowHostedRuns
    allowSelfSignOff
    maxRunningComparisons
    requestsPerMinutePerToken
    maxCallsPerComparison
    ambiguousOutcomes
    defaultShipPolicy {
      ...ShipPolicyFormFields
    }
  }
`);

export const WorkspaceSettingsQuery = graphql(`
  query WorkspaceSettings {
    workspace {
      id
      name
      settings {
        ...WorkspaceSettingsFields
      }
    }
  }
`);

export const UpdateWorkspaceSettings = graphql(`
  mutation UpdateWorkspaceSettings($input: WorkspaceSettingsInput!) {
    updateWorkspaceSettings(input: $input) {
      id
      settings {
        ...WorkspaceSettingsFields
      }
    }
  }
`);

export const MembersQuery = graphql(`
  query Members {
    members(first: 100) {
      totalCount
      edges {
        node {
          id
          name
          email
          role
          createdAt
        }
      }
    }
  }
`);

export const AddMember = graphql(`
  mutation AddMember($name: String!, $role: Role!, $email: String) {
    addMember(name: $name, role: $role, email: $email) {
      id
    }
  }
`);

export const SetMemberRole = graphql(`
  mutation SetMemberRole($memberId: ID!, $role: Role!) {
    setMemberRole(memberId: $memberId, role: $role) {
      id
      role
    }
  }
`);

export const RemoveMember = graphql(`
  mutation RemoveMember($memberId: ID!) {
    removeMember(memberId: $memberId) {
      id
    }
  }
`);

export const TokensQuery = graphql(`
  query Tokens {
    workspace {
      id
      tokens(first: 100) {
        totalCount
        edges {
          node {
            id
            name
            prefix
            memberId
            createdAt
            revokedAt
          }
        }
      }
    }
  }
`);

export const CreateToken = graphql(`
  mutation CreateToken($name: String!, $memberId: ID) {
    createToken(name: $name, memberId: $memberId) {
      secret
      token {
        id
      }
    }
  }
`);

export const RevokeToken = graphql(`
  mutation RevokeToken($id: ID!) {
    revokeToken(id: $id) {
      id
      revokedAt
    }
  }
`);

export const ConnectionsQuery = graphql(`
  query ModelConnections {
    modelConnections(first: 100) {
      totalCount
      edges {
        node {
          id
          name
          kind
          baseUrl
          hasApiKey
          simulated
          inputCentsPerMillionTokens
          outputCentsPerMillionTokens
          monthlyCapCents
          maxConcurrency
          status
          checkedAt
          monthToDateSpentCents
        }
      }
    }
  }
`);

export const CreateConnection = graphql(`
  mutation CreateModelConnection($input: CreateModelConnectionInput!) {
    createModelConnection(input: $input) {
      id
      status
    }
  }
`);

export const CheckConnection = graphql(`
  mutation CheckModelConnection($id: ID!) {
    checkModelConnection(id: $id) {
      id
      status
      checkedAt
    }
  }
`);

export const WebhooksQuery = graphql(`
  query Webhooks {
    webhooks(first: 50) {
      totalCount
      edges {
        node {
          id
          url
          events
          experimentId
          enabled
          createdAt
          deliveries(first: 5) {
            totalCount
            edges {
              node {
                id
                event
                subjectId
                status
                attemptCount
                createdAt
                deliveredAt
                attempts {
                  number
                  httpStatus
                  errorCode
                }
              }
            }
          }
        }
      }
    }
  }
`);

export const CreateWebhook = graphql(`
  mutation CreateWebhook($url: String!, $secret: String!, $events: [WebhookEvent!]!) {
    createWebhook(url: $url, secret: $secret, events: $events) {
      id
    }
  }
`);

export const RedeliverWebhook = graphql(`
  mutation RedeliverWebhook($deliveryId: ID!) {
    redeliverWebhook(deliveryId: $deliveryId) {
      id
      status
    }
  }
`);
