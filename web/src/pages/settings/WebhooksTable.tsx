/**
 * `table` "Webhooks": each webhook with its latest deliveries and "Redeliver" for a finished
 * one; "Add webhook" → `dialog` "Add webhook" (URL, secret, events). ADMIN changes them.
 */
import { useId, useState, type FormEvent } from "react";
import { useMutation } from "urql";
import { Ago } from "../../components/Ago";
import { Dialog } from "../../components/Dialog";
import { FieldError } from "../../components/FieldError";
import { RowAction } from "../../components/RowAction";
import { TextField } from "../../components/TextField";
import { SubmitRow } from "../../components/SubmitRow";
import {
  SettingsTable,
  type AddDialogProps,
  type SettingsColumn,
} from "../../components/SettingsTable";
import type { WebhookEvent, WebhooksQuery as WebhooksData } from "../../gql/graphql";
import { messageAt } from "../../lib/fieldErrors";
import { enumWords } from "../../lib/words";
import { CreateWebhook, RedeliverWebhook, WebhooksQuery } from "./settingsDocuments";

type Webhook = WebhooksData["webhooks"]["edges"][number]["node"];

const EVENTS: WebhookEvent[] = ["COMPARISON_FINISHED", "COMPARISON_REGRESSED", "RUN_REGRESSED"];

export function WebhooksTable() {
  const [, redeliver] = useMutation(RedeliverWebhook);
  const columns = (reload: () => void): SettingsColumn<Webhook>[] => [
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
      query={WebhooksQuery}
      rows={(data) => data.webhooks}
      columns={columns}
      empty="No webhooks yet."
      add={{ label: "Add webhook", needs: "ADMIN", dialog: WebhookDialog }}
    />
  );
}

const LABELS = { url: "URL", secret: "Secret", events: "Events" };

function WebhookDialog({ onClose, onAdded }: AddDialogProps) {
  const [url, setUrl] = useState("");
  const [secret, setSecret] = useState("");
  const [events, setEvents] = useState<WebhookEvent[]>(["COMPARISON_FINISHED"]);
  const [shown, setShown] = useState(false);
  const [{ fetching, error }, create] = useMutation(CreateWebhook);
  const eventsErrorId = useId();
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
        <TextField label="URL" type="url" value={url} onChange={setUrl} error={at("url")} />
        <TextField
          label="Secret"
          type="password"
          autoComplete="new-password"
          value={secret}
          onChange={setSecret}
          error={at("secret")}
        />
        <fieldset aria-describedby={at("events") ? eventsErrorId : undefined}>
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
          <FieldError id={eventsErrorId} message={at("events")} />
        </fieldset>
        <SubmitRow label="Add" busy={fetching} error={!placed && error} />
      </form>
    </Dialog>
  );
}
