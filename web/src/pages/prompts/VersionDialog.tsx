/**
 * `dialog` "New prompt template" (or model config, rubric): a name and the first version; or
 * `dialog` "New version" of an asset, started from its latest version.
 */
import { useId, useState, type FormEvent } from "react";
import { useMutation, type CombinedError } from "urql";
import { Dialog } from "../../components/Dialog";
import { FieldError } from "../../components/FieldError";
import { SubmitRow } from "../../components/SubmitRow";
import { draftErrors, toContent, type Draft, type EditableKind } from "./assetContent";
import { AddAssetVersion, CreateAsset } from "./promptsDocuments";
import { VersionEditor } from "./VersionEditor";

export function VersionDialog({
  kind,
  title,
  assetId,
  start,
  onClose,
  onSaved,
}: {
  kind: EditableKind;
  title: string;
  /** The asset to add a version to; without it the dialog names and makes a new asset. */
  assetId: string | null;
  start: Draft;
  onClose: () => void;
  onSaved: (assetId: string) => void;
}) {
  const [name, setName] = useState("");
  const [draft, setDraft] = useState<Draft>(start);
  const [shown, setShown] = useState(false);
  const [error, setError] = useState<CombinedError | null>(null);
  const [createState, createAsset] = useMutation(CreateAsset);
  const [addState, addVersion] = useMutation(AddAssetVersion);
  const nameId = useId();
  const errors = draftErrors(kind, draft);
  const nameError = assetId === null && !name.trim() ? "Give it a name." : null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setShown(true);
    setError(null);
    if (nameError || Object.keys(errors).length) return;
    let id = assetId;
    if (id === null) {
      const created = await createAsset({ input: { kind, name: name.trim() } });
      if (!created.data) return setError(created.error ?? null);
      id = created.data.createAsset.id;
    }
    const added = await addVersion({ input: { assetId: id, content: toContent(kind, draft) } });
    if (added.error) return setError(added.error);
    onSaved(id);
  };

  return (
    <Dialog title={title} onClose={onClose}>
      <form noValidate onSubmit={(e) => void submit(e)} className="stack">
        {assetId === null && (
          <div className="field">
            <label htmlFor={nameId}>Name</label>
            <input
              id={nameId}
              type="text"
              value={name}
              aria-invalid={shown && nameError ? true : undefined}
              aria-describedby={shown && nameError ? `${nameId}-e` : undefined}
              onChange={(e) => setName(e.target.value)}
            />
            <FieldError id={`${nameId}-e`} message={shown ? nameError : null} />
          </div>
        )}
        <VersionEditor kind={kind} draft={draft} errors={shown ? errors : {}} onChange={setDraft} />
        <SubmitRow
          label="Save version"
          busy={createState.fetching || addState.fetching}
          error={error}
        />
      </form>
    </Dialog>
  );
}
