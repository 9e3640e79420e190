/** One urql client per signed-in token: HTTP for queries and mutations, graphql-ws for live progress. */
import { createClient as createWsClient } from "graphql-ws";
import { Client, fetchExchange, makeOperation, mapExchange, subscriptionExchange } from "urql";
import type { Operation } from "urql";
import { errorCodes } from "./errors";
import { advance } from "./resume";

export type ConnectionListener = (lost: boolean) => void;

/**
 * Queries and mutations go by their persisted hash (`persistedDocuments` in codegen.ts): urql
 * then sends `extensions.persistedQuery` without the text, and the server runs the document
 * its map holds for that hash (docs/graphql.md, "Persisted documents").
 */
export function persisted(operation: Operation): Operation {
  const meta = (operation.query as { __meta__?: { hash?: string } }).__meta__;
  if (operation.kind === "subscription" || !meta?.hash) return operation;
  const sha256Hash = meta.hash.replace(/^sha256:/, "");
  return makeOperation(
    operation.kind,
    { ...operation, extensions: { ...operation.extensions, persistedQuery: { version: 1, sha256Hash } } },
    operation.context,
  );
}

export interface PortalClient {
  client: Client;
  dispose: () => void;
}

function wsUrl(): string {
  const { protocol, host } = window.location;
  return `${protocol === "https:" ? "wss:" : "ws:"}//${host}/graphql`;
}

export function makeClient(
  token: string,
  onRefused: () => void,
  onConnection: ConnectionListener,
): PortalClient {
  // The socket closes on its own once no subscription is left (`lazy`): a finished run's
  // subscription completes and the close that follows is expected. Only a close while a
  // subscription is still open is a loss (graphql-ws then reconnects and re-subscribes).
  let open = 0;
  const ws = createWsClient({
    url: wsUrl(),
    connectionParams: { Authorization: `Bearer ${token}` },
    lazy: true,
    retryAttempts: Infinity,
    shouldRetry: () => true,
    retryWait: async (retries) => {
      await new Promise((resolve) => setTimeout(resolve, Math.min(500 * 2 ** retries, 5000)));
    },
    on: {
      connected: () => onConnection(false),
      closed: (event) => {
        const code = (event as CloseEvent | undefined)?.code;
        if (code === 4403 || code === 4401) onRefused();
        else onConnection(open > 0);
      },
    },
  });
  const client = new Client({
    url: "/graphql",
    preferGetMethod: false,
    requestPolicy: "cache-and-network",
    fetchOptions: () => ({ headers: { Authorization: `Bearer ${token}` } }),
    exchanges: [
      mapExchange({
        onOperation: persisted,
        onError(error) {
          if (errorCodes(error).includes("UNAUTHENTICATED")) onRefused();
        },
      }),
      fetchExchange,
      subscriptionExchange({
        forwardSubscription(request) {
          // A copy of the variables: `advance` keeps its afterSeq at the last seq received,
          // and graphql-ws re-sends this same payload when it reconnects.
          const variables = { ...(request.variables ?? {}) } as Record<string, unknown>;
          const input = { ...request, variables, query: request.query || "" };
          return {
            subscribe(sink) {
              open += 1;
              let ended = false;
              const end = () => {
                if (!ended) {
                  ended = true;
                  open -= 1;
                }
              };
              const unsubscribe = ws.subscribe(input, {
                next: (result) => {
                  advance(input, result);
                  sink.next(result as Parameters<typeof sink.next>[0]);
                },
                error: (error) => {
                  end();
                  sink.error(error);
                },
                complete: () => {
                  end();
                  sink.complete();
                },
              });
              return {
                unsubscribe: () => {
                  end();
                  unsubscribe();
                },
              };
            },
          };
        },
      }),
    ],
  });
  return { client, dispose: () => void ws.dispose() };
}
