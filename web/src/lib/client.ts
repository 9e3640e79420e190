/** One urql client per signed-in token: HTTP for queries and mutations, graphql-ws for live progress. */
import { createClient as createWsClient } from "graphql-ws";
import { Client, fetchExchange, mapExchange, subscriptionExchange } from "urql";
import { errorCodes } from "./errors";

export type ConnectionListener = (lost: boolean) => void;

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
        else onConnection(true);
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
        onError(error) {
          if (errorCodes(error).includes("UNAUTHENTICATED")) onRefused();
        },
      }),
      fetchExchange,
      subscriptionExchange({
        forwardSubscription(request) {
          const input = { ...request, query: request.query || "" };
          return {
            subscribe(sink) {
              const unsubscribe = ws.subscribe(input, sink);
              return { unsubscribe };
            },
          };
        },
      }),
    ],
  });
  return { client, dispose: () => void ws.dispose() };
}
