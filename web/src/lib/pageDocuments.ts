/** What a list page (components/ListPage, PagedTable) reads of a connection's page info. */
import { graphql } from "../gql";

export const PageInfoFields = graphql(`
  fragment PageInfoFields on PageInfo {
    hasNextPage
    endCursor
  }
`);
