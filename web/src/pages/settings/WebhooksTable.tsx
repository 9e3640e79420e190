/**
 * `table` "Webhooks": each webhook with its latest deliveries and "Redeliver" for a finished
 * one; "Add webhook" → `dialog` "Add webhook" (URL, secret, events). ADMIN changes them.
 */
import { useId, useState, type FormEvent } from "react";
import { useMutation } from "urql";
import { useQuery } from "../../lib/query";
import { Ago } from "../../components/Ago";
import { Dialog } from "../../components/Dialog";
import { ErrorNotice } from "../../components/ErrorNotice";
import { FieldError } from "../../components/FieldError";
import { RowAction } from "../../components/RowAction";
import { SettingsTable, type SettingsColumn } from "../../components/SettingsTable";
import type { WebhookEvent, WebhooksQuery as WebhooksData } from "../../gql/graphql";
import { messageAt } from "../../lib/fieldErrors";
import { enumWords } from "../../lib/words";
import { CreateWebhook, RedeliverWebhook, WebhooksQuery } from "./settingsDocuments";

type Webhook = WebhooksData["webhooks"]["edges"][number]["node"];

const EVENTS: WebhookEvent[] = ["COMPARISON_FINISHED", "COMPARISON_REGRESSED", "RUN_REGRESSED"];

export function WebhooksTable() {
  const [{ data, error }, refetch] = useQuery({ query: WebhooksQuery });
  const [adding, setAdding] = useState(false);
  const [, redeliver] = useMutation(RedeliverWebhook);
  const reload = () => refetch({ requestPolicy: "network-only" });
  const columns: SettingsColumn<Webhook>[] = [
    { name: "URL", className: "url", cell: (h) => h.url },
    { name: "Events", cell: (h) => h.events.map(enumWords).join(", ") },
    {
      name: "Latest deliveries",
      cell: (h) => (
        <>
          {h.deliveries.edges.length === 0 && <span className="muted">None yet</span>}
          <ul className="plain">
            {h.deliveries.edges.map(({ node: d }) => (
              <li key={d.id}>
                {enumWords(d.event)}: {enumWords(d.status)} after {d.attemptCount}{" "}
                {d.attemptCount === 1 ? "attempt" : "attempts"}, <Ago iso={d.createdAt} />{" "}
                {d.status !== "PENDING" && (
                  <RowAction
                    needs="ADMIN"
                    label="Redeliver"
                    run={() => redeliver({ deliveryId: d.id })}
                    onDone={reload}
                  />
                )}
              </li>
            ))}
          </ul>
          {h.deliveries.totalCount > h.deliveries.edges.length && (
            <span className="muted">
              {h.deliveries.totalCount - h.deliveries.edges.length} earlier not shown
            </span>
          )}
        </>
      ),
    },
  ];
  return (
    <SettingsTable
      title="Webhooks"
      columns={columns}
      rows={data?.webhooks.edges.map((e) => e.node) ?? []}
      empty="No webhooks yet."
      error={error}
      add={{ label: "Add webhook", needs: "ADMIN", onClick: () => setAdding(true) }}
    >
      {adding && (
        <WebhookDialog
          onClose={() => setAdding(false)}
          onAdded={() => {
            setAdding(false);
            reload();
          }}
        />
      )}
    </SettingsTable>
  );
}

const LABELS = { url: "URL", secret: "Secret", events: "Events" };

function WebhookDialog({ onClose, onAdded }: { onClose: () => void; onAdded: () => void }) {
  const [url, setUrl] = useState("");
  const [secret, setSecret] = useState("");
  const [events, setEvents] = useState<WebhookEvent[]>(["COMPARISON_FINISHED"]);
  const [shown, setShown] = useState(false);
  const [{ fetching, error }, create] = useMutation(CreateWebhook);
  const ids = { url: useId(), secret: useId(), events: useId() };
  const errors = {
    url: /^https?:\/\/\S+$/.test(url.trim()) ? null : "Give a URL starting with http:// or https://.",
    secret:
      secret.length >= 16 && secret.length <= 1024
        ? null
        : "Give a secret of 16 to 1,024 characters to sign with.",
    events: events.length ? null : "Choose at least one event.",
  };
  const at = (key: keyof typeof errors) =>
    (shown ? errors[key] : null) ?? messageAt(error, key, LABELS);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setShown(true);
    if (errors.url || errors.secret || errors.events) return;
    const result = await create({ url: url.trim(), secret, events });
    if (!result.error) onAdded();
  };
  const placed = (["url", "secret", "events"] as const).some((k) => messageAt(error, k, LABELS));
  return (
    <Dialog title="Add webhook" onClose={onClose}>
      <form noValidate onSubmit={(e) => void submit(e)}>
        <div className="field">
          <label htmlFor={ids.url}>URL</label>
          <input
            id={ids.url}
            type="url"
            value={url}
            aria-invalid={at("url") ? true : undefined}
            aria-describedby={at("url") ? `${ids.url}-e` : undefined}
            onChange={(e) => setUrl(e.target.value)}
          />
          <FieldError id={`${ids.url}-e`} message={at("url")} />
        </div>
        <div className="field">
          <label htmlFor={ids.secret}>Secret</label>
          <input
            id={ids.secret}
            type="password"
            autoComplete="new-password"
            value={secret}
            aria-invalid={at("secret") ? true : undefined}
            aria-describedby={at("secret") ? `${ids.secret}-e` : undefined}
            onChange={(e) => setSecret(e.target.value)}
          />
          <FieldError id={`${ids.secret}-e`} message={at("secret")} />
        </div>
        <fieldset aria-describedby={at("events") ? ids.events : undefined}>
          <legend>Events</legend>
          {EVENTS.map((ev) => (
            <label key={ev} className="check">
              <input
                type="checkbox"
                checked={events.includes(ev)}
                onChange={(e) =>
                  setEvents(e.target.checked ? [...events, ev] : events.filter((x) => x !== ev))
                }
              />{" "}
              {enumWords(ev)}
            </label>
          ))}
          <FieldError id={ids.events} message={at("events")} />
        </fieldset>
        <div className="row">
          <button type="submit" className="primary" disabled={fetching}>
            Add
          </button>
        </div>
        {error && !placed && <ErrorNotice error={error} />}
      </form>
    </Dialog>
  );
}
