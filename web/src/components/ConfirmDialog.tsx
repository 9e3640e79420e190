import { useEffect, useId, useRef, type ReactNode } from "react";

/**
 * An `alertdialog` that asks before an action that spends or stops something: its heading
 * names it, its words describe it; the confirming button acts, "Keep it" (or Escape) does
 * nothing. The focus starts on the safe choice and returns to the opener.
 */
export function ConfirmDialog({
  title,
  confirmLabel,
  cancelLabel = "Keep it",
  busy = false,
  onConfirm,
  onCancel,
  children,
}: {
  title: string;
  confirmLabel: string;
  cancelLabel?: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const safe = useRef<HTMLButtonElement>(null);
  const headingId = useId();
  const wordsId = useId();
  useEffect(() => {
    const dialog = ref.current;
    const opener = document.activeElement as HTMLElement | null;
    if (dialog && !dialog.open) dialog.showModal();
    safe.current?.focus();
    return () => {
      dialog?.close();
      opener?.focus();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      role="alertdialog"
      aria-labelledby={headingId}
      aria-describedby={wordsId}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
    >
      <h2 id={headingId}>{title}</h2>
      <div id={wordsId}>{children}</div>
      <div className="row">
        <button type="button" className="primary" disabled={busy} onClick={onConfirm}>
          {confirmLabel}
        </button>
        <button type="button" ref={safe} onClick={onCancel}>
          {cancelLabel}
        </button>
      </div>
    </dialog>
  );
}
