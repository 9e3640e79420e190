import { useId, useState, type FormEvent } from "react";
import { useMutation } from "urql";
import { Dialog } from "../../components/Dialog";
import { ErrorNotice } from "../../components/ErrorNotice";
import { graphql } from "../../gql";

const ResolveFollowUps = graphql(`
  mutation ResolveFollowUps($ids: [ID!]!, $note: String!) {
    resolveFollowUps(ids: $ids, note: $note) {
      id
      state
      note
      resolvedAt
      resolvedByMemberId
    }
  }
`);

/** `dialog` "Resolve follow-ups": one note for the selected rows, all or none. */
export function FollowUpsResolveDialog({
  items,
  onClose,
  onResolved,
}: {
  items: { id: string; name: string }[];
  onClose: () => void;
  onResolved: () => void;
}) {
  const noteId = useId();
  const [note, setNote] = useState("");
  const [{ fetching, error }, resolve] = useMutation(ResolveFollowUps);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await resolve({ ids: items.map((i) => i.id), note: note.trim() });
    if (!result.error) onResolved();
  };
  return (
    <Dialog title="Resolve follow-ups" onClose={onClose}>
      <form onSubmit={submit}>
        <p>
          {items.length} follow-up{items.length === 1 ? "" : "s"}:
        </p>
        <ul>
          {items.map((item) => (
            <li key={item.id}>{item.name}</li>
          ))}
        </ul>
        <div className="field">
          <label htmlFor={noteId}>Note</label>
          <textarea
            id={noteId}
            rows={3}
            maxLength={2000}
            value={note}
            onChange={(e) => setNote(e.target.value)}
          />
        </div>
        {error && <ErrorNotice error={error} />}
        <div className="row">
          <button type="submit" className="primary" disabled={fetching || !note.trim()}>
            Resolve
          </button>
        </div>
      </form>
    </Dialog>
  );
}
