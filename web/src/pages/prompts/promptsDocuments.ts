/** The GraphQL operations of `/prompts` ("Prompts and models") and "New release". */
import { graphql } from "../../gql";

export const AssetsOfKindQuery = graphql(`
  query AssetsOfKind($kind: AssetKind!) {
    assets(kind: $kind, first: 100) {
      totalCount
      edges {
        node {
          id
          name
          description
          builtIn
          createdAt
          gateSettings {
            datasetId
            split
            trialsPerCase
            checks
            shipPolicy {
              ...ShipPolicyFormFields
            }
          }
          versions {
            id
            number
            createdAt
            content
            variables
          }
        }
      }
    }
  }
`);

export const CreateAsset = graphql(`
  mutation CreateAsset($input: CreateAssetInput!) {
    createAsset(input: $input) {
      id
    }
  }
`);

export const AddAssetVersion = graphql(`
  mutation AddAssetVersion($input: AddAssetVersionInput!) {
    addAssetVersion(input: $input) {
      id
      number
      variables
    }
  }
`);

export const ConnectionChoicesQuery = graphql(`
  query ConnectionChoices {
    modelConnections(first: 100) {
      edges {
        node {
          id
          name
          simulated
        }
      }
    }
  }
`);

export const ReleasesUsingQuery = graphql(`
  query ReleasesUsing {
    releases(first: 100) {
      edges {
        node {
          id
          name
          bindings {
            role
            assetVersion {
              id
              asset {
                id
              }
            }
          }
        }
      }
    }
  }
`);

export const CreateRelease = graphql(`
  mutation CreateRelease($input: CreateReleaseInput!) {
    createRelease(input: $input) {
      id
      name
    }
  }
`);

export const SetPromptGateSettings = graphql(`
  mutation SetPromptGateSettings($assetId: ID!, $settings: PromptGateSettingsInput!) {
    setPromptGateSettings(assetId: $assetId, settings: $settings) {
      id
      gateSettings {
        datasetId
        split
        trialsPerCase
        checks
        shipPolicy {
          ...ShipPolicyFormFields
        }
      }
    }
  }
`);

export const GateDatasetsQuery = graphql(`
  query GateDatasets {
    workspace {
      id
      settings {
        defaultShipPolicy {
          ...ShipPolicyFormFields
        }
      }
    }
    datasets(first: 100) {
      edges {
        node {
          id
          name
        }
      }
    }
  }
`);
